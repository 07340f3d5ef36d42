// The table side of a tournament match, shown at the top of the winner screen: once the match is
// finished, another phone at the table confirms the result (entered → confirmed); the phone that
// entered it waits, and can show the table's link as a QR code for a second phone to open; the
// organiser may always confirm. Follows the tournament so every phone sees the outcome.
// Decisions: a phone with only a view link sees the state but no button. The panel comes first,
// under the match's header: on the second phone confirming is what the screen is opened for.
// Which phone entered the result is the server's word: its table phone id, or (for a result
// entered without one) its device id.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { oneAtATime } from '../live.js';
import { qrCode, unreachableLinks } from '../address.js';
import { deviceId, organiserToken, tablePhone, writeToken } from '../store.js';
import { authHeaders } from '../api.js';
import {
  followTournament, loadTournament, stateBadge, tableLink, tournamentCall, tournamentProblem, tournamentRoute,
} from './common.js';
import { openTablePhone } from './phone.js';

/** Puts the panel first on the screen in `root` for a match at `link` = {id, round, table}; returns the cleanup. */
export async function confirmPanel(root, match, link) {
  const panel = h('section', { class: 'panel confirm-panel', 'aria-live': 'polite' });
  const head = root.querySelector('.match-head');
  if (head) head.after(panel);
  else root.prepend(panel);
  let tournament;
  try { tournament = await loadTournament(link.id); } catch { panel.remove(); return undefined; }
  const organiser = !!organiserToken(link.id);
  const token = organiser ? organiserToken(link.id) : writeToken(match.id);

  async function confirm(button) {
    button.disabled = true;
    try {
      const headers = authHeaders(token);
      if (!organiser) {
        const phone = await openTablePhone(match.id).catch(() => null);
        if (phone) headers['X-Table-Phone'] = phone.key;
      }
      await tournamentCall(link.id, `/rounds/${link.round}/tables/${link.table}/confirm`,
        { method: 'POST', headers });
      tournament = await loadTournament(link.id);
      draw();
    } catch (error) {
      button.disabled = false;
      panel.querySelector('.field-error')?.remove();
      panel.append(h('p', { class: 'field-error', role: 'alert' }, tournamentProblem(error)));
    }
  }

  function enteredHere(table) {
    if (table.entered_by_phone) return table.entered_by_phone === tablePhone(match.id)?.id;
    return table.entered_by_device === deviceId();
  }

  /** The table's link as a QR code, for the second phone to open (only a table token holder has it). */
  function linkForAnotherPhone() {
    if (organiser || !token) return null;
    const url = tableLink(tournament, link.round, { match_id: match.id, table_token: token, table: link.table });
    const code = qrCode(url, t('tt.qr_table', { n: link.table }));
    return h('details', { class: 'another-phone' }, h('summary', {}, t('tt.show_table_link')),
      unreachableLinks(), code);
  }

  function draw() {
    const round = tournament.round_list.find((r) => r.number === link.round);
    const table = round?.tables.find((x) => x.table === link.table);
    if (!table) return;
    const mine = enteredHere(table);
    let action = null;
    if (table.state === 'confirmed') {
      action = h('p', { class: 'confirmed', id: 'table-confirmed' }, t('tt.confirmed'));
    } else if (table.state === 'entered' && token && (organiser || !mine)) {
      action = h('button', { type: 'button', class: 'primary confirm-result',
        onclick: (event) => confirm(event.target) }, t(organiser ? 'tt.confirm_as_organiser' : 'tt.confirm_result'));
    } else if (table.state === 'entered') {
      action = [h('p', { class: 'hint', id: 'table-waiting' }, t(mine ? 'tt.other_phone' : 'tt.waiting_confirm')),
        mine && linkForAnotherPhone()];
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
