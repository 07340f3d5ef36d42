// Projector board (#/t/<id>/board): large standings with their tiebreak columns and the current
// round's table states, updated live from the tournament's event stream. The page widens to the
// screen while it is shown.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { oneAtATime } from '../live.js';
import {
  currentRound, followTournament, loadStandings, loadTournament, playerNames, roundLine, standingsTable,
  stateBadge, tournamentError, tournamentHeader,
} from './common.js';

export async function boardScreen(root, id) {
  let tournament;
  let standings;
  const load = async () => { [tournament, standings] = await Promise.all([loadTournament(id), loadStandings(id)]); };
  try { await load(); } catch (error) { return tournamentError(root, error); }
  const body = h('div', { class: 'projector-body' });

  function draw() {
    const round = currentRound(tournament);
    const names = playerNames(tournament);
    replace(body,
      h('section', { class: 'panel projector-standings' }, h('h2', { id: 'round-line' }, roundLine(tournament)),
        standingsTable(tournament, standings, { links: false })),
      round && h('section', { class: 'panel' }, h('h2', {}, t('tt.round_n', { n: round.number })),
        h('ul', { class: 'tables projector-tables' }, round.tables.map((table) => h('li', {
          class: 'table-state', 'data-table': table.table },
        h('div', { class: 'table-head' }, h('strong', {}, t('tt.table_n', { n: table.table })), stateBadge(table.state)),
        h('span', {}, table.players.map((pid) => names.get(pid)).join(', ')))))));
  }

  document.body.classList.add('projector');
  replace(root, tournamentHeader(tournament, 'board'), body);
  draw();
  const stop = followTournament(tournament, { version: () => tournament.version, refresh: oneAtATime(async () => {
    try { await load(); } catch { return; }
    draw();
  }) });
  return () => { stop(); document.body.classList.remove('projector'); };
}
