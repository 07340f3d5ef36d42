// Score pad entry: any other game, one whole number per side in seat order. The keyboard's Enter
// goes on to the next empty field; once all but one are typed the API's guide fills the last
// from the pad's `round_total` (`last_points`), again whenever another changes (as Sea Change's
// checksum). Each field has a ± key: the numeric keyboard of some phones (iOS) has no minus.
// The running totals with this round as typed (the guide's `totals_after`) stand in one line
// under the fields. Offline the last field is filled the one way the guide fills it: the
// round total less the points typed, once every other field is a whole number; a side left
// empty is said at its field rather than queued (`missing`).
// Decisions: the fields are `type=text` with `inputmode=numeric` (a number field drops a lone
// "-" typed on Android and cannot show "-" while the ± key is used); no card mode, no steppers:
// four players are three numbers and Save. The sheet focuses the first field as a new round's
// form opens (`focusFirst`), so no tap goes to it first.
import { debounce, h, replace } from '../dom.js';
import { number, t } from '../i18n.js';
import { focusNextEmpty } from './controls.js';

const WHOLE = /^-?\d+$/;

export function sides(match) {
  const teams = match.options.teams;
  if (teams && teams.length) {
    return teams.map((seats) => ({ seats, name: seats.map((s) => match.players[s].name).join(' & ') }));
  }
  return match.players.map((p) => ({ seats: [p.seat], name: p.name }));
}

export function roundCells(match, round) {
  return (round.result.points || []).map((points) => number(points));
}

export const chartTotals = () => ['points'];

// The form's line of running totals stands in for the sheet's standings line above it.
export const totalsInForm = true;

export function entryForm({ match, initial, guide, report }) {
  const padSides = sides(match);
  const n = padSides.length;
  const roundTotal = match.options.round_total ?? null;
  const state = {
    points: initial?.points ? initial.points.map((x) => (x == null ? '' : String(x))) : Array(n).fill(''),
    // The field the round total fills: a correction starts with the last side's.
    auto: initial?.points && roundTotal != null ? n - 1 : -1,
    guide: null,
  };
  const el = h('div', { class: 'entry score-pad' });
  const totals = h('p', { class: 'pad-totals', 'aria-live': 'polite' });
  const hint = h('p', { class: 'hint', 'aria-live': 'polite' });
  let inputs = [];

  const partial = () => ({ points: state.points.map((x) => (WHOLE.test(x.trim()) ? Number(x) : null)) });

  /** The guide's `last_points` as the guide works it out, for when it cannot be asked. */
  function lastPoints() {
    if (roundTotal == null) return null;
    const missing = state.points.flatMap((x, side) => (x.trim() === '' ? [side] : []));
    const typed = state.points.filter((x) => WHOLE.test(x.trim()));
    if (missing.length !== 1 || typed.length !== n - 1) return null;
    return { side: missing[0], points: roundTotal - typed.reduce((sum, x) => sum + Number(x), 0) };
  }

  function fillLast(last) {
    if (last == null) return;
    const { side, points } = last;
    if (state.points[side] !== '' && side !== state.auto) return;
    state.points[side] = String(points);
    state.auto = side;
    const input = inputs[side];
    if (input) {
      input.value = state.points[side];
      input.classList.add('auto');
      input.closest('[data-path]').dispatchEvent(new Event('input', { bubbles: true }));
    }
  }

  function drawTotals(answer) {
    const after = answer?.totals_after;
    replace(totals, after ? [h('span', { class: 'strip-label' }, t('pad.totals')), ' ',
      padSides.map((side, i) => h('span', { class: 'pad-total', 'data-side': String(i) },
        `${side.name} `, h('strong', {}, number(after[i]))))] : []);
  }

  const ask = debounce(async () => {
    const answer = await guide(partial());
    if (answer === undefined) return;
    state.guide = answer;
    if (!answer) {
      hint.textContent = navigator.onLine ? '' : t('sc.no_help_offline');
      fillLast(lastPoints());
      return;
    }
    hint.textContent = '';
    report(answer.errors.filter((error) => error.code !== 'not_an_integer'));
    fillLast(answer.last_points);
    drawTotals(answer);
  }, 120);

  function line(side, i) {
    const input = h('input', { type: 'text', inputmode: 'numeric', enterkeyhint: 'next', autocomplete: 'off',
      value: state.points[i], 'aria-label': t('sc.score_of', { name: side.name }),
      class: i === state.auto ? 'auto' : '' });
    input.addEventListener('input', () => {
      state.points[i] = input.value;
      input.classList.remove('auto');
      if (state.auto === i) state.auto = -1;
      else if (state.auto >= 0) {
        // The filled-in field depended on the others: ask again.
        state.points[state.auto] = '';
        inputs[state.auto].value = '';
        inputs[state.auto].classList.remove('auto');
        state.auto = -1;
      }
      ask();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      focusNextEmpty(inputs, i);
    });
    const negate = h('button', { type: 'button', class: 'step negate', 'aria-label': t('sc.negate', { name: side.name }),
      onclick: () => {
        const v = input.value.trim();
        input.value = v.startsWith('-') ? v.slice(1) : `-${v}`;
        input.dispatchEvent(new Event('input'));
        input.focus();
      } }, '±');
    return h('div', { class: 'score-line', 'data-path': `points[${i}]` },
      h('span', { class: 'name' }, side.name), input, negate);
  }

  /** Every side needs its points: said at the field when the round cannot be checked now. */
  function missing() {
    return partial().points.map((x, side) => x == null
      && { path: `points[${side}]`, message: t('sc.missing_score', { name: padSides[side].name }) }).filter(Boolean);
  }

  /** The round as Save sends it, the last field filled when it can be. */
  function entry() {
    fillLast(lastPoints());
    return partial();
  }

  const lines = padSides.map(line);
  inputs = lines.map((row) => row.querySelector('input'));
  replace(el, h('div', { class: 'score-head' }, h('span', { id: 'pad-points' }, t('pad.points'),
    roundTotal != null && [' ', h('span', { class: 'note' }, t('sc.adds_up', { n: number(roundTotal) }))])),
  h('div', { role: 'group', 'aria-labelledby': 'pad-points', 'data-path': 'points' }, lines), totals, hint);
  ask();
  return { el, entry, missing, reguide: () => { if (!state.guide) ask(); },
    // Without scrolling: the sheet keeps the round's heading and the totals in sight.
    focusFirst: () => inputs[0]?.focus({ preventScroll: true }) };
}
