// Player view (#/t/<id>/p/<player>): my table and seat this round in big type, with who sits where
// and who deals, the round clock, my results round by round, my standing. Live like the board: the
// moment a round starts the phone shows the new table. No token needed in a public tournament; a
// phone that checked in (checkin.js) reads with its player token, in a private tournament too.
// Decisions: everything comes from the player's view alone (its answer names the seats and the
// tournament), so a player token, which reads nothing else, is enough; the tournament's tabs show
// only where this phone may read the tournament itself.
import { authHeaders, call } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { followEvents, oneAtATime } from '../live.js';
import { checkedIn, tournamentReadToken } from '../store.js';
import { clockFace } from './clock.js';
import { formatNumber, loadTournament, tournamentError, tournamentHeader, tournamentPath } from './common.js';

function currentTable(tournament, current) {
  if (!current) return h('p', { class: 'hint', id: 'no-table' }, t('tt.no_table'));
  const dealer = current.seats[current.dealer];
  return [
    h('p', { class: 'your-table', id: 'your-table', 'data-table': current.table, 'data-seat': current.seat + 1 },
      t('ci.your_table', { table: current.table, seat: current.seat + 1 })),
    h('p', { class: 'my-table', id: 'my-table' },
      t('tt.my_table', { round: current.round, table: current.table, seat: current.seat + 1 })),
    h('ol', { class: 'seats', id: 'my-seats' }, current.seats.map((s) => h('li', {
      class: s.seat === current.seat ? 'me' : null, 'data-seat': s.seat + 1 },
    s.name, s.seat === current.dealer && h('span', { class: 'note dealer-mark' }, ` · ${t('ci.deals')}`)))),
    dealer && h('p', { class: 'dealer', id: 'my-dealer' }, t('standings.next_dealer', { name: dealer.name })),
    tournament && h('a', { class: 'button secondary', href: `#/m/${encodeURIComponent(current.match_id)}` }, t('tt.open_match')),
  ];
}

export async function playerScreen(root, id, playerId) {
  const mine = checkedIn(id);
  const token = mine && String(mine.player) === String(playerId) ? mine.token : tournamentReadToken(id);
  const readView = () => call(`${tournamentPath(id)}/players/${playerId}`, { headers: authHeaders(token) });
  let view;
  let tournament = null;
  const load = async () => {
    view = await readView();
    // The tabs need the tournament, which a player token alone may not read (private ones).
    tournament = await loadTournament(id).catch(() => null);
  };
  try { await load(); } catch (error) { return tournamentError(root, error); }
  const head = h('div');
  const body = h('div');
  const clock = clockFace();

  function draw() {
    const { standing } = view;
    body.dataset.version = String(view.version); // the answer drawn, as the sheet's form says its own
    replace(head, tournament ? tournamentHeader(tournament, null)
      : h('div', { class: 'match-head' }, h('h1', {}, view.tournament_name)));
    replace(body,
      h('section', { class: 'panel now-panel' }, h('h2', {}, t('tt.now')), currentTable(tournament, view.current)),
      clock.el,
      h('section', { class: 'panel' }, h('h2', {}, view.player.name,
        view.player.club && h('span', { class: 'note' }, view.player.club)),
      !view.player.active && h('p', { class: 'hint' }, t('tt.dropped_out')),
      h('p', { class: 'my-standing', id: 'my-standing' },
        t('tt.my_standing', { rank: standing.rank,
          points: t('tt.my_points', { n: standing.points, points: formatNumber(standing.points) }),
          tables: t('tt.my_tables', { n: standing.tables }) }))),
      h('section', { class: 'panel' }, h('h2', {}, t('tt.my_results')),
        view.tables.length === 0 ? h('p', { class: 'hint' }, t('tt.no_results'))
          : h('table', { class: 'sheet my-results' },
            h('thead', {}, h('tr', {}, ['tt.round', 'tt.table', 'tt.seat', 'tt.place', 'tt.points']
              .map((key) => h('th', { scope: 'col', class: 'num' }, t(key))))),
            h('tbody', {}, view.tables.map((row) => h('tr', { 'data-round': row.round },
              h('td', { class: 'num' }, String(row.round)),
              h('td', { class: 'num' }, tournament ? h('a', { href: `#/m/${encodeURIComponent(row.match_id)}` }, String(row.table))
                : String(row.table)),
              h('td', { class: 'num' }, String(row.seat + 1)),
              h('td', { class: 'num' }, row.place == null ? '–' : t('rank.ordinal', { n: row.place })),
              h('td', { class: 'num' }, formatNumber(row.points))))))));
    clock.update(view.clock, view.warn_minutes);
  }

  replace(root, head, body);
  draw();
  const stop = followEvents(`/api/v1${tournamentPath(id)}/events`, token, {
    version: () => view.version,
    refresh: oneAtATime(async () => {
      try { await load(); } catch { return; }
      draw();
    }),
  });
  return () => { stop(); clock.stop(); };
}
