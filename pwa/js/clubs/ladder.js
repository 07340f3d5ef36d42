// A game's ladder: the members who played it, best rating (ordinal = mu − 3·sigma) first, and a
// chart of the leaders' ratings match by match.
// Decision: the chart follows the ladder's first CHARTED members over the last WINDOW rated
// matches of the game, numbered as the club's matches finished (the history shows the same
// numbers): a screen of fifty lines or five thousand points reads as nothing. Every member's
// number is in the table.
import { h, replace } from '../dom.js';
import { number, t } from '../i18n.js';
import { lineChart } from '../chart.js';
import { gameName } from '../match-view.js';
import { choice } from '../games/controls.js';
import { go } from '../router.js';
import { ladder, ratingHistory } from './api.js';
import { clubError, clubHeader, clubRoute, followClub, loadClub, rating } from './common.js';

const CHARTED = 5;
const WINDOW = 30;

function ladderTable(rows, clubId) {
  return h('table', { class: 'ladder' },
    h('caption', { class: 'sr-only' }, t('club.ladder')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('standings.rank')),
      h('th', { scope: 'col' }, t('standings.name')),
      h('th', { scope: 'col', class: 'num' }, t('club.rating')),
      h('th', { scope: 'col', class: 'num' }, t('club.played_short')),
      h('th', { scope: 'col', class: 'num' }, t('club.won_short')))),
    h('tbody', {}, rows.map((row) => h('tr', { 'data-member': row.player, 'data-rank': row.rank },
      h('td', {}, t('rank.ordinal', { n: row.rank })),
      h('th', { scope: 'row' }, h('a', { href: clubRoute(clubId, `/p/${row.player}`) }, row.name)),
      h('td', { class: 'num', 'data-ordinal': row.ordinal, title: t('club.mu_sigma', { mu: rating(row.mu), sigma: rating(row.sigma) }) },
        rating(row.ordinal)),
      h('td', { class: 'num' }, number(row.played)), h('td', { class: 'num' }, number(row.won))))));
}

async function ratingChart(clubId, game, rows) {
  const leaders = rows.slice(0, CHARTED);
  const histories = await Promise.all(leaders.map((row) => ratingHistory(clubId, game, row.player)));
  const series = histories.flat().map((member) => ({ name: member.name,
    points: member.points.map((p) => ({ x: p.finish, y: p.ordinal })) }));
  const finishes = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => b - a);
  const from = finishes[Math.min(WINDOW, finishes.length) - 1] ?? 0;
  return lineChart({
    title: t('club.chart_title', { game: gameName(game) }), xLabel: t('club.chart_match'), yLabel: t('club.rating'),
    series: series.map((s) => ({ ...s, points: s.points.filter((p) => p.x >= from) })),
    formatX: (x) => number(x), formatY: rating,
  });
}

export async function ladderScreen(root, id, chosen) {
  let view;
  try { view = await loadClub(id); } catch (error) { return clubError(root, error); }
  async function draw() {
    const { club } = view;
    const game = chosen || club.games[0];
    const body = h('section', { class: 'panel' });
    if (!game) {
      replace(root, clubHeader(view, 'ladder'), replace(body, h('p', { class: 'hint' }, t('club.no_ladder'))));
      return;
    }
    const picker = club.games.length > 1 && choice({ label: t('new.game'), path: 'game', selected: game,
      options: club.games.map((g) => ({ value: g, label: gameName(g) })),
      onSelect: (value) => go(clubRoute(id, `/ladder/${encodeURIComponent(value)}`), true) });
    const rows = await ladder(id, game);
    const chart = rows.length ? await ratingChart(id, game, rows) : null;
    replace(body, h('h2', {}, t('club.ladder_of', { game: gameName(game) })), picker,
      rows.length ? ladderTable(rows, id) : h('p', { class: 'hint' }, t('club.no_ladder')),
      h('p', { class: 'hint' }, t('club.rating_hint')), chart);
    replace(root, clubHeader(view, 'ladder'), body);
  }
  try { await draw(); } catch (error) { return clubError(root, error); }
  return followClub(id, () => view.club.version, async () => {
    // A failed read keeps the screen as it is: the next change, or the next visit, reads again.
    try { view = await loadClub(id); await draw(); } catch { /* shown as it was */ }
  });
}
