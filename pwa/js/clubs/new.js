// A new club: its name. The phone that creates it keeps both tokens and shows the club's links
// next, so the members' phones can join by scanning.
import { Problem } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { clearErrors, showErrors } from '../form.js';
import { go } from '../router.js';
import { rememberClub } from '../store.js';
import { createClub } from './api.js';
import { clubProblem, clubRoute } from './common.js';

export function newClubScreen(root) {
  const form = h('form', { class: 'panel new-club', novalidate: true },
    h('h1', {}, t('club.new_title')), h('p', { class: 'hint' }, t('club.new_lead')),
    h('div', { class: 'field', 'data-path': 'name' }, h('label', { for: 'club-name' }, t('club.name')),
      h('input', { id: 'club-name', type: 'text', maxlength: 60, autocomplete: 'off', enterkeyhint: 'done' })),
    h('button', { type: 'submit', class: 'primary' }, t('club.create')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    try {
      const club = await createClub(form.querySelector('#club-name').value.trim());
      rememberClub(club, { token: club.token, view: club.view_token });
      go(clubRoute(club.id, '/share'));
    } catch (error) {
      submit.disabled = false;
      showErrors(form, error instanceof Problem ? error.errors : [], clubProblem(error));
    }
  });
  replace(root, form);
  return undefined;
}
