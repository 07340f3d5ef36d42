// Controls shared by the entry forms: one-tap choices and ± steppers, all ≥ 44 px and labelled.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

/**
 * A radio group of buttons; `options`: [{value, label, note?}]. Tapping the chosen one keeps it.
 * `hideLabel`: the label is for screen readers only (a mode switch in a heading).
 */
export function choice({ label, options, selected, onSelect, path, className = '', hideLabel = false }) {
  const group = h('div', { class: `choice ${className}`, role: 'radiogroup', 'aria-label': label,
    'data-path': path });
  const draw = (value) => replace(group, options.map((option) => h('button', {
    type: 'button', role: 'radio', class: option.className || '',
    'aria-checked': String(option.value === value), 'data-value': String(option.value),
    onclick: () => { draw(option.value); onSelect(option.value); },
  }, option.label, option.note != null && h('span', { class: 'note' }, option.note))));
  draw(selected);
  return h('fieldset', { class: 'field' }, h('legend', { class: hideLabel ? 'sr-only' : null }, label), group);
}

/**
 * The keyboard's Enter in a field of a round moves on to the next empty one, never submits:
 * after the last, the keyboard goes away so the taps below are in reach.
 */
export function focusNextEmpty(inputs, from) {
  const next = inputs.slice(from + 1).find((input) => input.value === '');
  if (next) next.focus(); else inputs[from].blur();
}

/**
 * A whole number with − and + buttons around an input that can also be typed into. `spoken`: what
 * a screen reader says for the field and its buttons where the visible `label` leans on the
 * line's heading (one stepper per player under each player's name).
 */
export function stepper({ label, spoken = label, value, min = 0, max = 99, onChange, path }) {
  const input = h('input', { type: 'number', inputmode: 'numeric', min, max, value: String(value),
    'aria-label': spoken, class: 'step-value' });
  const set = (next) => {
    const clamped = Math.max(min, Math.min(max, next));
    input.value = String(clamped);
    onChange(clamped);
  };
  input.addEventListener('input', () => {
    if (input.value !== '') onChange(Number(input.value));
  });
  return h('div', { class: 'stepper', 'data-path': path },
    h('span', { class: 'step-label' }, label),
    h('button', { type: 'button', class: 'step', 'aria-label': t('step.less', { what: spoken }),
      onclick: () => set(Number(input.value || 0) - 1) }, '−'),
    input,
    h('button', { type: 'button', class: 'step', 'aria-label': t('step.more', { what: spoken }),
      onclick: () => set(Number(input.value || 0) + 1) }, '+'));
}
