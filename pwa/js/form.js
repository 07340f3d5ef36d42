// Showing API problems where they belong: each error goes to the element whose data-path is the
// longest prefix of the error's path (`captured[2][5]` lands on the pile `captured[2]`); what has
// no such element is listed at the top of the form.
import { h } from './dom.js';

function covers(fieldPath, errorPath) {
  return errorPath === fieldPath || errorPath.startsWith(`${fieldPath}[`)
    || errorPath.startsWith(`${fieldPath}.`);
}

export function clearErrors(form) {
  for (const el of form.querySelectorAll('.field-error')) el.remove();
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

export function showErrors(form, errors, detail) {
  clearErrors(form);
  const fields = [...form.querySelectorAll('[data-path]')];
  const general = [];
  for (const error of errors) {
    const path = error.path || '';
    const target = path && fields
      .filter((el) => covers(el.dataset.path, path))
      .sort((a, b) => b.dataset.path.length - a.dataset.path.length)[0];
    if (!target) { general.push(error); continue; }
    const input = target.matches('input, select') ? target : target.querySelector('input, select');
    (input || target).setAttribute('aria-invalid', 'true');
    target.after(h('p', { class: 'field-error', role: 'alert', 'data-error-path': path },
      error.message));
  }
  if (general.length || (!errors.length && detail)) {
    const messages = general.length ? general.map((error) => error.message) : [detail];
    form.prepend(h('div', { class: 'field-error form-errors', role: 'alert' },
      messages.map((m) => h('p', {}, m))));
  }
  const first = form.querySelector('.field-error');
  if (first) first.scrollIntoView({ block: 'center' });
}
