// Check-in (#/t/<id>/check-in?code=…), what a player's phone opens from the tournament's QR code:
// a name, a club if they like, one tap. The server registers them and answers their player token,
// kept on this phone (store.js), which then shows their own view (player.js) from now on.
// Decisions: a phone that has checked in to this tournament goes straight to its player's view
// (scanning the code again registers nobody twice); the name is never cleared on a refusal, so a
// name already taken can be changed by a letter and sent again; the code stays out of the
// address bar once read, so a screenshot of the view shares no code.
import { Problem, call } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { clearErrors, showErrors } from '../form.js';
import { go, goFromHere } from '../router.js';
import { checkedIn, rememberCheckIn } from '../store.js';
import { tournamentPath, tournamentProblem, tournamentRoute } from './common.js';

export async function checkInScreen(root, id) {
  const held = checkedIn(id);
  if (held) {
    go(`${tournamentRoute(id)}/p/${held.player}`, true);
    return undefined;
  }
  const code = new URLSearchParams(location.hash.split('?')[1] || '').get('code') || '';
  if (code) history.replaceState(null, '', `${tournamentRoute(id)}/check-in`);
  const name = h('input', { id: 'ci-name', type: 'text', autocomplete: 'name', maxlength: 60, required: true,
    enterkeyhint: 'send' });
  const club = h('input', { id: 'ci-club', type: 'text', autocomplete: 'organization', maxlength: 60 });
  const send = h('button', { type: 'submit', class: 'primary big', id: 'ci-send' }, t('ci.send'));
  const form = h('form', { class: 'panel check-in', novalidate: true },
    h('h1', {}, t('ci.title')),
    h('p', { class: 'hint' }, t('ci.hint')),
    h('div', { class: 'field', 'data-path': 'name' }, h('label', { for: name.id }, t('tt.player_name')), name),
    h('div', { class: 'field', 'data-path': 'club' }, h('label', { for: club.id }, t('ci.club_optional')), club),
    send);
  const leave = goFromHere();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    send.disabled = true;
    try {
      const answer = await call(`${tournamentPath(id)}/check-in`, { method: 'POST',
        body: { code, name: name.value.trim(), club: club.value.trim() || null } });
      rememberCheckIn(id, answer.player.id, answer.player_token);
      leave(`${tournamentRoute(id)}/p/${answer.player.id}`, true);
    } catch (error) {
      // A wrong code (403) and a name taken or check-in closed (409) are said in the API's words.
      const problem = error instanceof Problem ? error : null;
      const why = problem && [403, 409].includes(problem.status) && problem.message ? problem.message
        : tournamentProblem(error);
      showErrors(form, problem ? problem.errors : [], why);
      send.disabled = false;
    }
  });
  replace(root, form);
  name.focus();
  return undefined;
}
