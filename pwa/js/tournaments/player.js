// Player view (#/t/<id>/p/<player>): my table and seat this round with who sits where, my results
// round by round, my standing. No token needed; live like the board.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { oneAtATime } from '../live.js';
import {
  followTournament, formatNumber, loadTournament, playerNames, tournamentCall, tournamentError,
  tournamentHeader,
} from './common.js';

function currentTable(tournament, current, names) {
  if (!current) return h('p', { class: 'hint' }, t('tt.no_table'));
  const round = tournament.round_list.find((r) => r.number === current.round);
  const table = round?.tables.find((x) => x.table === current.table);
  return [
    h('p', { class: 'my-table', id: 'my-table' },
      t('tt.my_table', { round: current.round, table: current.table, seat: current.seat + 1 })),
    table && h('ol', { class: 'seats' }, table.players.map((pid) => h('li', {}, names.get(pid)))),
    h('a', { class: 'button secondary', href: `#/m/${encodeURIComponent(current.match_id)}` }, t('tt.see_match')),
  ];
}

export async function playerScreen(root, id, playerId) {
  let tournament;
  let view;
  const load = async () => {
    [tournament, view] = await Promise.all([loadTournament(id), tournamentCall(id, `/players/${playerId}`)]);
  };
  try { await load(); } catch (error) { return tournamentError(root, error); }
  const body = h('div');

  function draw() {
    const names = playerNames(tournament);
    const { standing } = view;
    replace(body,
      h('section', { class: 'panel' }, h('h2', {}, view.player.name,
        view.player.club && h('span', { class: 'note' }, view.player.club)),
      !view.player.active && h('p', { class: 'hint' }, t('tt.dropped_out')),
      h('p', { class: 'my-standing', id: 'my-standing' },
        t('tt.my_standing', { rank: standing.rank,
          points: t('tt.my_points', { n: standing.points, points: formatNumber(standing.points) }),
          tables: t('tt.my_tables', { n: standing.tables }) }))),
      h('section', { class: 'panel' }, h('h2', {}, t('tt.now')), currentTable(tournament, view.current, names)),
      h('section', { class: 'panel' }, h('h2', {}, t('tt.my_results')),
        view.tables.length === 0 ? h('p', { class: 'hint' }, t('tt.no_results'))
          : h('table', { class: 'sheet my-results' },
            h('thead', {}, h('tr', {}, ['tt.round', 'tt.table', 'tt.seat', 'tt.place', 'tt.points']
              .map((key) => h('th', { scope: 'col', class: 'num' }, t(key))))),
            h('tbody', {}, view.tables.map((row) => h('tr', { 'data-round': row.round },
              h('td', { class: 'num' }, String(row.round)),
              h('td', { class: 'num' }, h('a', { href: `#/m/${encodeURIComponent(row.match_id)}` }, String(row.table))),
              h('td', { class: 'num' }, String(row.seat + 1)),
              h('td', { class: 'num' }, row.place == null ? '–' : t('rank.ordinal', { n: row.place })),
              h('td', { class: 'num' }, formatNumber(row.points))))))));
  }

  replace(root, tournamentHeader(tournament, null), body);
  draw();
  return followTournament(tournament, { version: () => tournament.version, refresh: oneAtATime(async () => {
    try { await load(); } catch { return; }
    draw();
  }) });
}
