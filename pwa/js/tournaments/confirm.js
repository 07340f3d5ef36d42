// The table side of a tournament match, shown under the winner screen: once the match is finished,
// another phone at the table confirms the result (entered → confirmed); the phone that entered it
// waits; the organiser may always confirm. Follows the tournament so every phone sees the outcome.
// Decision: a phone with only a view link sees the state but no button.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { oneAtATime } from '../live.js';
import { deviceId, organiserToken, writeToken } from '../store.js';
import { authHeaders } from '../api.js';
import {
  followTournament, loadTournament, stateBadge, tournamentCall, tournamentProblem, tournamentRoute,
} from './common.js';

/** Appends the panel to `root` for a match at `link` = {id, round, table}; returns the cleanup. */
export async function confirmPanel(root, match, link) {
  const panel = h('section', { class: 'panel confirm-panel', 'aria-live': 'polite' });
  root.append(panel);
  let tournament;
  try { tournament = await loadTournament(link.id); } catch { return undefined; }
  const organiser = !!organiserToken(link.id);
  const token = organiser ? organiserToken(link.id) : writeToken(match.id);

  async function confirm(button) {
    button.disabled = true;
    try {
      await tournamentCall(link.id, `/rounds/${link.round}/tables/${link.table}/confirm`,
        { method: 'POST', headers: authHeaders(token) });
      tournament = await loadTournament(link.id);
      draw();
    } catch (error) {
      button.disabled = false;
      panel.querySelector('.field-error')?.remove();
      panel.append(h('p', { class: 'field-error', role: 'alert' }, tournamentProblem(error)));
    }
  }

  function draw() {
    const round = tournament.round_list.find((r) => r.number === link.round);
    const table = round?.tables.find((x) => x.table === link.table);
    if (!table) return;
    const mine = table.entered_by_device === deviceId();
    let action = null;
    if (table.state === 'confirmed') {
      action = h('p', { class: 'confirmed', id: 'table-confirmed' }, t('tt.confirmed'));
    } else if (table.state === 'entered' && token && (organiser || !mine)) {
      action = h('button', { type: 'button', class: 'primary confirm-result',
        onclick: (event) => confirm(event.target) }, t(organiser ? 'tt.confirm_as_organiser' : 'tt.confirm_result'));
    } else if (table.state === 'entered') {
      action = h('p', { class: 'hint', id: 'table-waiting' }, t(mine ? 'tt.other_phone' : 'tt.waiting_confirm'));
    }
    replace(panel, h('h2', {}, t('tt.table_in', { n: link.table, round: link.round, name: tournament.name })),
      h('p', {}, stateBadge(table.state)), action,
      h('a', { class: 'button secondary', href: tournamentRoute(link.id) }, t('tt.to_tournament')));
  }

  draw();
  return followTournament(tournament, { version: () => tournament.version, refresh: oneAtATime(async () => {
    try { tournament = await loadTournament(link.id); } catch { return; }
    draw();
  }) });
}
