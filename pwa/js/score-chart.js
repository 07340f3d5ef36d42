// A match's running totals as a chart (chart.js), one line per side, round by round: the numbers
// are the API's `totals` of each round, never worked out here. A game keeps more than one running
// total (Sea Change: VP and points; Tschau Sepp: penalty points and wins): the chart shows one at
// a time and a row of buttons switches between them.
// Decisions: the chart starts at round 1 (what the API sent), not at an assumed 0; the first total
// shown is the game module's `chartTotals(match)` first choice when it has one (Tschau Sepp played
// for wins), otherwise the standings' first column, the one that ranks; the sides that won are
// drawn bolder.
import { lineChart } from './chart.js';
import { h, replace } from './dom.js';
import { number, t } from './i18n.js';
import { roundT, winnerNames } from './match-view.js';

const FIXED = new Set(['seat', 'team', 'seats', 'name', 'rank', 'player']);
// The total a reader chose per match, kept while the app is open: a live update redraws the
// chart, and should not switch it back.
const chosen = new Map();

/** The totals with one number per side in every round, in the order the chart offers them. */
function chartKeys(view, sides) {
  const { match, module } = view;
  const standing = match.standings.length ? Object.keys(match.standings[0]).filter((k) => !FIXED.has(k)) : [];
  const preferred = module.chartTotals?.(match) ?? [];
  const ordered = [...preferred.filter((k) => standing.includes(k)), ...standing.filter((k) => !preferred.includes(k))];
  return ordered.filter((key) => match.rounds.every((round) => {
    const values = round.totals?.[key];
    return Array.isArray(values) && values.length === sides.length && values.every(Number.isFinite);
  }));
}

function chartOf(view, sides, key) {
  const { match } = view;
  const won = new Set(winnerNames(match));
  const label = t(`total.${key}`);
  return lineChart({
    title: t('chart.title', { total: label }),
    xLabel: roundT(match.game, 'chart.round'),
    yLabel: label,
    series: sides.map((side, index) => ({
      name: side.name,
      strong: won.has(side.name),
      points: match.rounds.map((round) => ({ x: round.number, y: round.totals[key][index] })),
    })),
    formatX: String,
    formatY: (value) => number(value),
  });
}

/**
 * The running totals of a match as a <section>, or null before the first round. `module` is the
 * game's entry module (its `sides(match)` names the lines in the order of the totals' lists).
 */
export function scoreChart(view) {
  const { match, module } = view;
  if (!match.rounds.length) return null;
  const sides = module.sides(match);
  const keys = chartKeys(view, sides);
  if (!keys.length) return null;
  const first = keys.includes(chosen.get(match.id)) ? chosen.get(match.id) : keys[0];
  const place = h('div', { class: 'chart-place' });
  const choices = keys.length > 1 && h('div', { class: 'chart-choice', role: 'group', 'aria-label': t('chart.show') },
    keys.map((key) => h('button', { type: 'button', class: 'small-button', 'data-total': key,
      'aria-pressed': String(key === first), onclick: () => { chosen.set(match.id, key); show(key); } },
    t(`total.${key}`))));
  function show(key) {
    if (choices) for (const button of choices.children) button.setAttribute('aria-pressed', String(button.dataset.total === key));
    replace(place, chartOf(view, sides, key));
  }
  show(first);
  return h('section', { class: 'panel score-chart' }, choices, place);
}
