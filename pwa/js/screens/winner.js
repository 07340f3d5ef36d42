// The winner screen, a moment to enjoy: a trophy with confetti falling once (standing still for
// whoever asks the system for less motion), who won and why (the API's reason, in the app's
// language as the API says it), the running totals as a chart, the final standings, and the way
// on: the same players again, a new match, the score sheet to keep.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { isZero, money } from '../money.js';
import { goFromHere } from '../router.js';
import { errorScreen, header, loadView, roundSheet, roundT, standingsTable, winnerNames } from '../match-view.js';
import { scoreChart } from '../score-chart.js';
import { prepareRematch } from './new-match.js';
import { exportLink } from './share.js';

const SVG = 'http://www.w3.org/2000/svg';
const CONFETTI = 18;

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

/** A cup on a stand, drawn in the trophy colour of the theme (light and dark in app.css). */
function trophy() {
  return svg('svg', { class: 'trophy', viewBox: '0 0 64 64', 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { class: 'trophy-handles', d: 'M16 14H7c0 12 6 17 13 18M48 14h9c0 12-6 17-13 18', fill: 'none', 'stroke-width': 4 }),
    svg('path', { class: 'trophy-cup', d: 'M15 8h34v10c0 12-7 20-17 20S15 30 15 18Z' }),
    svg('rect', { class: 'trophy-cup', x: 28, y: 37, width: 8, height: 10 }),
    svg('rect', { class: 'trophy-cup', x: 19, y: 47, width: 26, height: 8, rx: 2 }),
    svg('path', { class: 'trophy-shine', d: 'M22 13v6c0 6 3 10 7 12', fill: 'none', 'stroke-width': 3 }));
}

/**
 * Confetti pieces in the chart colours, spread over the width; app.css lets them fall. Placed
 * through the style object: the app's content security policy refuses style attributes.
 */
function confetti() {
  return h('div', { class: 'confetti', 'aria-hidden': 'true' }, Array.from({ length: CONFETTI }, (_, i) => {
    const piece = h('span');
    piece.style.setProperty('--i', String(i));
    piece.style.setProperty('--x', `${(i * 37) % 97}%`);
    piece.style.setProperty('--y', `${0.5 + ((i * 23) % 5) * 1.1}rem`);
    piece.style.setProperty('--c', `var(--chart-${i % 8})`);
    return piece;
  }));
}

/**
 * Who pays whom, in big type ("Bo → Ann CHF 1.00"): the match's settlement as the API gives it,
 * the sides named as its standings name them; and what goes into the club's pot.
 */
function payments(match) {
  const money_ = match.settlement;
  if (!money_) return null;
  const names = new Map(match.standings.map((line) => [line.team ?? line.seat, line.name]));
  return h('section', { class: 'panel settle', id: 'settlement' }, h('h2', {}, t('kasse.who_pays')),
    money_.transfers.length > 0
      ? h('ul', { class: 'transfers' }, money_.transfers.map((transfer) => h('li', { class: 'transfer' },
        h('span', {}, names.get(transfer.from)), h('span', { 'aria-hidden': 'true' }, ' → '),
        h('span', { class: 'sr-only' }, ` ${t('kasse.pays_to')} `), h('span', {}, names.get(transfer.to)), ' ',
        h('strong', {}, money(money_.currency, transfer.amount)))))
      : h('p', { class: 'hint' }, t('kasse.nobody_pays')),
    !isZero(money_.pot) && h('p', { class: 'pot' }, t('kasse.into_pot', { amount: money(money_.currency, money_.pot) })));
}

export async function winnerScreen(root, id) {
  const go = goFromHere();
  let view;
  try { view = await loadView(id); } catch (error) { return errorScreen(root, error); }
  const { match } = view;
  if (match.status !== 'finished') return go(`#/m/${encodeURIComponent(id)}/standings`, true);
  const names = winnerNames(match);
  replace(root, header(view, 'winner'),
    h('section', { class: 'panel winner' }, confetti(), trophy(),
      h('h2', { id: 'winner-names' }, t(names.length > 1 ? 'winner.shared' : 'winner.single',
        { names })),
      match.reason && h('p', { class: 'reason', id: 'winner-reason' }, match.reason.message),
      standingsTable(match)),
    payments(match),
    scoreChart(view),
    h('section', { class: 'panel actions' },
      h('button', { type: 'button', class: 'primary', onclick: () => { prepareRematch(match); go('#/new'); } },
        t('winner.rematch')),
      h('a', { class: 'button secondary', href: '#/new' }, t('start.new')),
      exportLink(match),
      h('a', { class: 'button secondary', href: '#/' }, t('nav.home'))),
    h('section', { class: 'panel' }, h('h2', {}, roundT(match.game, 'sheet.rounds')), roundSheet(view)));
  return undefined;
}
