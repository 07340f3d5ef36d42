// Showing API problems where they belong: each error goes to the element whose data-path is the
// longest prefix of the error's path (`captured[2][5]` lands on the pile `captured[2]`); what has
// no such element is listed at the top of the form.
// An error says what was wrong when it was found: once that field (or one inside it, or the group
// it belongs to) is edited, it goes, and the guide's live check shows it again if it still holds.
import { h } from './dom.js';

function covers(fieldPath, errorPath) {
  return errorPath === fieldPath || errorPath.startsWith(`${fieldPath}[`)
    || errorPath.startsWith(`${fieldPath}.`);
}

function drop(error) {
  error.marked?.removeAttribute('aria-invalid');
  error.remove();
}

export function clearErrors(form) {
  for (const el of form.querySelectorAll('.field-error')) el.remove();
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

/** Puts `error` after its field; false when no field of the form covers its path. */
function place(form, error, live) {
  const path = error.path || '';
  const target = path && [...form.querySelectorAll('[data-path]')]
    .filter((el) => covers(el.dataset.path, path))
    .sort((a, b) => b.dataset.path.length - a.dataset.path.length)[0];
  if (!target) return false;
  const input = target.matches('input, select') ? target : target.querySelector('input, select');
  const shown = h('p', { class: `field-error${live ? ' live' : ''}`, role: live ? 'status' : 'alert',
    'data-error-path': path }, error.message);
  shown.marked = input || target;
  shown.marked.setAttribute('aria-invalid', 'true');
  target.after(shown);
  return true;
}

export function showErrors(form, errors, detail) {
  clearErrors(form);
  const general = errors.filter((error) => !place(form, error, false));
  if (general.length || (!errors.length && detail)) {
    const messages = general.length ? general.map((error) => error.message) : [detail];
    form.prepend(h('div', { class: 'field-error form-errors', role: 'alert' },
      messages.map((m) => h('p', {}, m))));
  }
  const first = form.querySelector('.field-error');
  if (first) first.scrollIntoView({ block: 'center' });
}

/**
 * What the guide finds wrong while a round is typed, at its fields (replacing what it said last
 * time). An error already shown at that path from saving is not said twice; one without a field
 * waits for Save.
 */
export function showLive(form, errors) {
  for (const old of form.querySelectorAll('.field-error.live')) drop(old);
  const saved = new Set([...form.querySelectorAll('.field-error:not(.live)[data-error-path]')]
    .map((el) => el.dataset.errorPath));
  for (const error of errors) if (!saved.has(error.path)) place(form, error, true);
}

/**
 * Editing a field takes back the errors about it, about what is inside it and about its group.
 * A control that edits a field other than the one it sits in names that field in `data-edits`.
 */
export function forgetErrorsOnEdit(form) {
  const edited = (event) => {
    const field = event.target.closest?.('[data-edits], [data-path]');
    const path = field?.dataset.edits ?? field?.dataset.path;
    if (!path) return;
    for (const shown of form.querySelectorAll('.field-error[data-error-path]')) {
      const at = shown.dataset.errorPath;
      if (at && (covers(at, path) || covers(path, at))) drop(shown);
    }
  };
  form.addEventListener('input', edited);
  form.addEventListener('click', edited);
}
