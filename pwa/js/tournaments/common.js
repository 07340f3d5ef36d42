// What every tournament screen shares: reading a tournament with the token this device holds, its
// tab bar, table states, the standings table with its tiebreak columns, following its changes,
// table links and downloads. Loaded on demand (not part of the first visit).
// Decisions: the organiser token is also this device's token for every table's match (the API
// accepts it), so "open match" from the dashboard can correct any round; numbers are shown with at
// most two decimals in the UI language; standings columns follow the tournament's tiebreak chain.
import { Problem, authHeaders, call } from '../api.js';
import { h, replace } from '../dom.js';
import { matchTitle, problemText } from '../match-view.js';
import { has, number, t } from '../i18n.js';
import { followEvents } from '../live.js';
import { organiserToken, rememberTournament, storeTokens, tournamentReadToken } from '../store.js';

export const tournamentPath = (id) => `/tournaments/${encodeURIComponent(id)}`;
export const tournamentRoute = (id) => `#/t/${encodeURIComponent(id)}`;

/** A call under /tournaments/<id>; `write` sends the organiser token, otherwise the best read token. */
export function tournamentCall(id, path = '', { write = false, ...options } = {}) {
  const token = write ? organiserToken(id) : tournamentReadToken(id);
  return call(tournamentPath(id) + path, { ...options, headers: { ...authHeaders(token), ...options.headers } });
}

export async function loadTournament(id) {
  const tournament = await tournamentCall(id);
  rememberTournament(tournament);
  return tournament;
}

export const loadStandings = (id) => tournamentCall(id, '/standings');

/**
 * Follows a tournament: `refresh()` whenever the server has a newer version than `version()`, the
 * one the screen shows (see live.js; give it a oneAtATime refresh, so a burst of changes, such as
 * a round start, reads at most twice); `connected` as followEvents takes it.
 */
export function followTournament(tournament, handlers) {
  const token = tournament.private ? tournamentReadToken(tournament.id) : null;
  return followEvents(`/api/v1${tournamentPath(tournament.id)}/events`, token, handlers);
}

export const formatNumber = (value) => (value == null ? '–' : number(value, { maximumFractionDigits: 2 }));

export function playerNames(tournament) {
  return new Map(tournament.players.map((p) => [p.id, p.name]));
}

export function currentRound(tournament) {
  return tournament.round_list.find((r) => r.number === tournament.current_round)
    || tournament.round_list.at(-1) || null;
}

/** The next round may start: rounds left and none still being played. */
export function canStartRound(tournament) {
  const last = tournament.round_list.at(-1);
  return tournament.status !== 'finished' && tournament.round_list.length < tournament.rounds
    && (!last || last.status === 'complete');
}

export function tournamentHeader(tournament, active) {
  const base = tournamentRoute(tournament.id);
  const tabs = [['overview', base], ['board', `${base}/board`]];
  return h('div', { class: 'match-head' },
    h('h1', {}, tournament.name, h('small', {}, ` · ${matchTitle(tournament)}`)),
    h('nav', { class: 'tabs', 'aria-label': t('tt.nav') }, tabs.map(([key, href]) => h('a', {
      href, 'aria-current': key === active ? 'page' : null }, t(`tt.nav.${key}`)))));
}

export function roundLine(tournament) {
  const round = currentRound(tournament);
  if (tournament.status === 'finished') return t('tt.finished', { n: tournament.rounds });
  if (!round) return t('tt.registering', { n: tournament.players.filter((p) => p.active).length });
  return t(round.status === 'complete' ? 'tt.round_complete' : 'tt.round_playing',
    { n: round.number, of: tournament.rounds });
}

export function stateBadge(state) {
  return h('span', { class: `state state-${state}`, 'data-state': state }, t(`tt.state.${state}`));
}

/**
 * The link a table's phones open, as an absolute URL: the match with its table token, and where
 * it sits in the tournament (the match JSON does not say).
 */
export function tableLink(tournament, round, table) {
  const match = encodeURIComponent(table.match_id);
  return `${location.origin}${location.pathname}#/m/${match}?t=${encodeURIComponent(table.table_token)}`
    + `&tt=${encodeURIComponent(tournament.id)}.${round}.${table.table}`;
}

/** Opens a table's match as the organiser: their token writes every table's match. */
export function organiserMatchLink(tournament, round, table) {
  const token = organiserToken(tournament.id);
  const place = { id: tournament.id, round: round.number, table: table.table };
  return h('a', { class: 'button secondary', href: `#/m/${encodeURIComponent(table.match_id)}`,
    onclick: () => { if (token) storeTokens(table.match_id, { token, tournament: place, organiser: true }); } }, t('tt.open_match'));
}

export function tiebreakKeys(tournament, rows) {
  const present = new Set(rows.flatMap((row) => Object.keys(row.tiebreaks || {})));
  const chain = tournament.tiebreaks.filter((key) => present.has(key));
  return [...chain, ...[...present].filter((key) => !chain.includes(key))];
}

export const tiebreakLabel = (key) => (has(`tt.tiebreak.${key}`) ? t(`tt.tiebreak.${key}`) : key);

/**
 * What the standings count: "after round N" only once every table of round N is confirmed; while
 * some are still open, how many of that round's tables count so far.
 */
export function standingsCaption(tournament, standings) {
  const n = standings.through_round;
  if (!n) return t('tt.standings_none');
  const round = tournament.round_list.find((r) => r.number === n);
  if (!round || round.status === 'complete') return t('tt.standings_after', { n });
  return t('tt.standings_during', { n, tables: round.tables.length,
    confirmed: round.tables.filter((x) => x.state === 'confirmed').length });
}

/** Said, not only greyed: a player who dropped out keeps their place in the standings. */
export function droppedMark(row) {
  return (row.dropped ?? row.active === false)
    ? h('span', { class: 'note dropped', 'data-dropped': '' }, t('tt.dropped_out')) : null;
}

/**
 * The standings; on a narrow screen the tiebreak columns wait behind a button (CSS: the table
 * fits 360 px with rank, name, points and tables), on a wide one they are always shown.
 */
export function standingsTable(tournament, standings, { links = true } = {}) {
  const keys = tiebreakKeys(tournament, standings.rows);
  const base = tournamentRoute(tournament.id);
  const table = h('table', { class: 'standings tournament-standings tiebreaks-on-demand', id: `standings-${tournament.id}` },
    h('caption', {}, standingsCaption(tournament, standings)),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('standings.rank')),
      h('th', { scope: 'col' }, t('standings.name')),
      h('th', { scope: 'col', class: 'num' }, t('tt.points')),
      h('th', { scope: 'col', class: 'num' }, t('tt.tables')),
      keys.map((key) => h('th', { scope: 'col', class: 'num', 'data-tiebreak': key }, tiebreakLabel(key))))),
    h('tbody', {}, standings.rows.map((row) => h('tr', { 'data-rank': row.rank, 'data-player': row.player,
      class: row.active === false ? 'inactive' : null },
    h('td', {}, t('rank.ordinal', { n: row.rank })),
    h('th', { scope: 'row' }, links ? h('a', { href: `${base}/p/${row.player}` }, row.name) : row.name,
      row.club && h('span', { class: 'note' }, row.club), droppedMark(row)),
    h('td', { class: 'num', 'data-total': 'points' }, formatNumber(row.points)),
    h('td', { class: 'num' }, String(row.tables)),
    keys.map((key) => h('td', { class: 'num', 'data-tiebreak': key }, formatNumber(row.tiebreaks[key])))))));
  if (!keys.length) return table;
  const toggle = h('button', { type: 'button', class: 'secondary tiebreak-toggle', 'aria-expanded': 'false',
    'aria-controls': table.id, onclick: () => {
      const shown = table.classList.toggle('tiebreaks-shown');
      toggle.setAttribute('aria-expanded', String(shown));
      toggle.textContent = t(shown ? 'tt.hide_tiebreaks' : 'tt.show_tiebreaks');
    } }, t('tt.show_tiebreaks'));
  return [table, toggle];
}

export function tournamentProblem(error) {
  if (error instanceof Problem && error.status === 404) return t('tt.not_found');
  if (error instanceof Problem && (error.status === 401 || error.status === 403)) return t('tt.private_error');
  return problemText(error);
}

export function tournamentError(root, error) {
  replace(root, h('section', { class: 'panel' }, h('h1', {}, t('error.title')),
    h('p', { role: 'alert' }, tournamentProblem(error)), h('a', { class: 'button', href: '#/' }, t('nav.home'))));
}
