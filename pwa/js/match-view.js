// What every match screen shares: loading the match and its game, the tab bar, the standings table,
// the round-by-round sheet, and error pages for unknown or private matches.
import { Problem, call, game as loadGame, getMatch } from './api.js';
import { h, replace } from './dom.js';
import { dateTime, has, number, t } from './i18n.js';
import { gameModule } from './games/index.js';
import { rememberMatch, storeTokens, tokensFor, writeToken } from './store.js';

const FIXED = new Set(['seat', 'team', 'seats', 'name', 'rank']);

export async function loadView(id) {
  const match = await getMatch(id);
  const game = await loadGame(match.game);
  rememberMatch(match);
  return { match, game, module: await gameModule(match.game), canWrite: !!writeToken(id) };
}

/**
 * The later of two reads of a match: the service worker answers from its cache when its fetch
 * fails, and a screen must never go back to an older version than it showed.
 */
export function newest(shown, read) {
  return shown && shown.version > read.version ? shown : read;
}

/** A game's name; a club's game key of a score pad (`score-pad:Jass`) is named by its title. */
export function gameName(gameId) {
  const at = gameId.indexOf(':');
  return at >= 0 ? gameId.slice(at + 1) : t(`game.${gameId}`);
}

/**
 * A sentence about a match's rounds in its game's words. Tschau Sepp counts games, not rounds
 * (rules.md §3, and its options and reasons from the API: "Number of games", "After 5 games"), so
 * it has its own sentences where they name a round (`ts.games.<key with _ for .>`: "Game 3",
 * "Spiel 3"; French and Italian say manche and mano for both).
 */
export function roundT(gameId, key, params) {
  const own = key.replace('.', '_');
  return gameId === 'tschau-sepp' && has(`ts.games.${own}`) ? t(`ts.games.${own}`, params) : t(key, params);
}

/** What a match is called: its game, or the game a score pad keeps (its `title`: Jass). */
export function matchTitle(match) {
  return match.options?.title || gameName(match.game);
}

export function header(view, active) {
  const { match } = view;
  const base = `#/m/${encodeURIComponent(match.id)}`;
  // The first tab is what that screen shows: the entry form while there is a round to enter and
  // this phone may enter it, the winner once the match is over, none for a view link (a viewer
  // has nothing to enter: the link opens on the standings).
  const first = match.status === 'finished' ? [['winner', `${base}/winner`, 'tidy.nav_winner']]
    : view.canWrite ? [['sheet', base, 'nav.sheet']] : [];
  const tabs = [...first, ['standings', `${base}/standings`, 'nav.standings'],
    ['history', `${base}/history`, 'nav.history'], ['share', `${base}/share`, 'nav.share']];
  return h('div', { class: 'match-head' },
    // Over the round being entered the players are named by the form and the standings strip:
    // a second line of names there pushed the last score line under the Save bar.
    h('h1', {}, matchTitle(match),
      active !== 'sheet' && h('small', {}, ` · ${match.players.map((p) => p.name).join(', ')}`)),
    tablePlace(match.id),
    // Not over the round being entered, which must fit the phone's screen with Save in reach. A
    // match kept on this phone from before the API said when it was played has no played_at.
    active !== 'sheet' && match.played_at && h('p', { class: 'note played' },
      [t('match.played', { when: dateTime(match.played_at) }), match.location].filter(Boolean).join(' · ')),
    h('nav', { class: 'tabs', 'aria-label': t('nav.match') }, tabs.map(([key, href, label]) => h('a', {
      href, 'aria-current': key === active ? 'page' : null, 'data-tab': key }, t(label)))));
}

const placeText = (place) => (place.name ? t('tidy.table_place', place) : t('tidy.table_place_unnamed', place));

/**
 * A tournament table's phone says where it is: the tournament, the round and the table. The
 * table's link carries round and table; the tournament's name is read once (a private
 * tournament's stays unread: the table's token does not read it) and kept with the link.
 */
function tablePlace(matchId) {
  const place = tokensFor(matchId).tournament;
  if (!place) return null;
  const line = h('p', { class: 'note table-place', 'data-table-place': '' }, placeText(place));
  if (!place.name) {
    call(`/tournaments/${encodeURIComponent(place.id)}`).then((tournament) => {
      const named = { ...place, name: tournament.name };
      storeTokens(matchId, { tournament: named });
      line.textContent = placeText(named);
    }).catch(() => {});
  }
  return line;
}

/** The names of the sides that won (a player, a team, the solo AI); empty until the match ends. */
export function winnerNames(match) {
  return match.standings.filter((row) => match.winners.includes(row.team ?? row.seat)).map((row) => row.name);
}

/** A total's short name, its long one said on hover and to a screen reader ("SP": Siegpunkte). */
function totalLabel(key) {
  if (!has(`tidy.total_long.${key}`)) return t(`total.${key}`);
  return h('abbr', { title: t(`tidy.total_long.${key}`), 'aria-label': t(`tidy.total_long.${key}`) }, t(`total.${key}`));
}

export function standingsTable(match) {
  const rows = match.standings;
  const columns = rows.length ? Object.keys(rows[0]).filter((k) => !FIXED.has(k)) : [];
  return h('table', { class: 'standings' },
    h('caption', { class: 'sr-only' }, t('standings.title')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('standings.rank')),
      h('th', { scope: 'col' }, t('standings.name')),
      columns.map((c) => h('th', { scope: 'col', class: 'num' }, totalLabel(c))))),
    h('tbody', {}, rows.map((row) => h('tr', { 'data-rank': row.rank },
      h('td', {}, t('rank.ordinal', { n: row.rank })), h('th', { scope: 'row' }, row.name),
      columns.map((c) => h('td', { class: 'num', 'data-total': c }, number(row[c])))))));
}

/**
 * The standings in one line above the entry form: place, name and the first total (VP, penalty
 * points) of every side; the full table is on the standings tab.
 */
export function standingsStrip(match) {
  const rows = match.rounds.length ? match.standings : [];
  if (!rows.length) return null;
  const [total] = Object.keys(rows[0]).filter((k) => !FIXED.has(k));
  return h('div', { class: 'strip' },
    h('span', { class: 'strip-label', id: 'strip-label' }, totalLabel(total)),
    h('ol', { 'aria-labelledby': 'strip-label' }, rows.map((row) => h('li', { 'data-rank': row.rank },
      h('span', { class: 'rank' }, t('rank.ordinal', { n: row.rank })), ' ', row.name, ' ',
      h('strong', { 'data-total': total }, number(row[total]))))));
}

export function roundSheet(view, { edit = false } = {}) {
  const { match, module } = view;
  const sides = module.sides(match);
  const base = `#/m/${encodeURIComponent(match.id)}`;
  // A game's marks in the cells (Sea Change's ★) are said under the sheet.
  return [roundTable(view, sides, base, edit), module.legend && match.rounds.length > 0
    && h('p', { class: 'hint legend' }, module.legend())];
}

function roundTable(view, sides, base, edit) {
  const { match, module } = view;
  return h('table', { class: 'sheet' },
    h('caption', { class: 'sr-only' }, roundT(match.game, 'sheet.rounds')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'),
      sides.map((s) => h('th', { scope: 'col', class: 'num' }, s.name)),
      edit && h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('history.edit'))))),
    h('tbody', {}, match.rounds.map((round) => h('tr', { 'data-round': round.number },
      h('th', { scope: 'row' }, String(round.number)),
      module.roundCells(match, round).map((cell) => h('td', { class: 'num' }, cell)),
      // A pencil, not the word: "Ändern" or "Modifier" in a column of its own pushed a sheet of
      // four players past a 360 px screen, the link cut off at its edge.
      edit && h('td', { class: 'edit' }, h('a', { class: 'small-button edit-round', href: `${base}/rounds/${round.number}`,
        'aria-label': roundT(match.game, 'history.edit_round', { n: round.number }) }, '✎'))))));
}

/**
 * Who deals next. With `queued` rounds still waiting in the outbox the deal has moved on that many
 * seats: it passes one seat to the left every round (seat 0 sits left of the first dealer), the
 * rotation the API's `next_dealer` follows for every game.
 */
export function dealerOf(match, queued = 0) {
  if (match.next_dealer == null) return null;
  return match.players[(match.next_dealer + queued) % match.players.length] ?? null;
}

export function nextDealer(match, queued = 0) {
  const player = dealerOf(match, queued);
  return player ? h('p', { class: 'dealer' }, t('standings.next_dealer', { name: player.name })) : null;
}

export function problemText(error) {
  if (error instanceof Problem) {
    if (error.status === 404) return t('error.not_found');
    if (error.status === 401 || error.status === 403) return t('error.private');
    if (error.status === 412) return t('error.stale');
    if (error.errors.length) return error.errors.map((item) => item.message).join(' ');
    return error.message || t('error.http', { status: error.status });
  }
  return t('error.offline');
}

export function errorScreen(root, error) {
  replace(root, h('section', { class: 'panel' }, h('h1', {}, t('error.title')),
    h('p', { role: 'alert' }, problemText(error)), h('a', { class: 'button', href: '#/' }, t('nav.home'))));
}
