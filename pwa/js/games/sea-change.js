// Sea Change entry. Points mode: one number per side; once all but one are typed the API's guide
// fills the last from the checksum (`last_score`); trump and trump 0 by one tap; tricks only when
// the guide says `needs_tricks`. Card mode: a card grid per pile with the guide's running pile
// points. Decision: points mode is the default (fastest at a table that counts on paper); the
// chosen mode is remembered per device.
import { debounce, h, replace } from '../dom.js';
import { number, t } from '../i18n.js';
import { cardGrid } from './card-grid.js';
import { choice } from './controls.js';

const MODE_KEY = 'tafelrunde.sea-change.mode';
const ALL_SUITS = ['blue', 'green', 'red', 'purple', 'yellow'];

export function sides(match) {
  const teams = match.options.teams;
  if (teams && teams.length) {
    return teams.map((seats) => ({ seats, name: seats.map((s) => match.players[s].name).join(' & ') }));
  }
  if (match.players.length === 1) {
    // The AI's side is named by the API, in the request's language, like every standings line.
    const ai = match.standings.find((row) => row.player === false);
    return [{ seats: [0], name: match.players[0].name }, { seats: [], name: ai.name }];
  }
  return match.players.map((p) => ({ seats: [p.seat], name: p.name }));
}

export function roundCells(match, round) {
  const vp = round.result.vp || [];
  return (round.result.scores || []).map((score, side) => `${number(score)}${vp[side] ? ' ★' : ''}`);
}

export const cardName = (id) => {
  const [suit, value] = id.split('-');
  return `${t(`sc.suit.${suit}`)} ${value}`;
};

function suitsInPlay(match, game) {
  const chosen = match.options.suits;
  if (chosen && chosen.length) return chosen;
  return game.suits?.map((s) => (typeof s === 'string' ? s : s.id)) || ALL_SUITS;
}

function deckValues(game, players) {
  const rule = game.decks?.[String(players)] || game.decks?.find?.((d) => d.players === players);
  return rule?.values || null;
}

export function entryForm({ match, game, initial, guide }) {
  const teamSides = sides(match);
  const n = teamSides.length;
  const solo = match.players.length === 1;
  const suits = suitsInPlay(match, game);
  const state = {
    mode: initial ? (initial.captured ? 'cards' : 'points') : (localStorage.getItem(MODE_KEY) || 'points'),
    final_trump: initial?.final_trump ?? null,
    scores: initial?.scores ? initial.scores.map(String) : Array(n).fill(''),
    auto: -1,
    trump_zero: initial?.trump_zero ?? null,
    tricks: initial?.tricks ? initial.tricks.map(String) : Array(n).fill(''),
    has_eight: initial?.has_eight ?? false,
    piles: initial?.captured ? initial.captured.map((p) => [...p]) : Array.from({ length: n }, () => []),
    guide: null,
  };
  const el = h('div', { class: 'entry sea-change' });
  const body = h('div');
  const hint = h('p', { class: 'hint', 'aria-live': 'polite' });
  let grid = null;

  const modeChoice = () => choice({
    label: t('sc.mode'), selected: state.mode, className: 'segmented',
    options: [{ value: 'points', label: t('sc.mode.points') }, { value: 'cards', label: t('sc.mode.cards') }],
    onSelect: (mode) => { state.mode = mode; localStorage.setItem(MODE_KEY, mode); draw(); ask(); },
  });
  const trumpChoice = () => choice({
    label: t('sc.final_trump'), selected: state.final_trump, path: 'final_trump', className: 'suits',
    options: suits.map((s) => ({ value: s, label: t(`sc.suit.${s}`), className: `suit-${s}` })),
    onSelect: (suit) => { state.final_trump = suit; ask(); },
  });

  function partial() {
    if (state.mode === 'cards') {
      return { ...(state.final_trump ? { final_trump: state.final_trump } : {}), captured: state.piles };
    }
    const entry = { scores: state.scores.map((s) => (s === '' || s === '-' ? null : Number(s))) };
    if (state.final_trump) entry.final_trump = state.final_trump;
    if (state.trump_zero != null) entry.trump_zero = state.trump_zero;
    if (solo) entry.has_eight = state.has_eight;
    // Tricks are shown whenever a tie may need them, but sent only when typed: a tie the trump 0
    // breaks needs none, and the API names the field when a tie does.
    if (state.tricks.some((x) => x !== '')) {
      entry.tricks = state.tricks.map((x) => (x === '' ? null : Number(x)));
    }
    return entry;
  }

  const ask = debounce(async () => {
    const answer = await guide(partial());
    state.guide = answer;
    if (!answer) {
      hint.textContent = navigator.onLine ? '' : t('sc.no_help_offline');
      return;
    }
    hint.textContent = '';
    if (state.mode === 'points') fillLast(answer);
    else if (grid && grid.rows === deckKey()) grid.draw();
    else draw();
    if (state.mode === 'points') drawTricks();
    if (answer.checksum != null) hint.textContent = t('sc.checksum', { n: answer.checksum });
  }, 120);

  function fillLast(answer) {
    const last = answer.last_score;
    if (last == null) return;
    const side = typeof last === 'object' ? last.side : state.scores.findIndex((x) => x === '');
    const score = typeof last === 'object' ? last.score : last;
    if (side < 0 || (state.scores[side] !== '' && side !== state.auto)) return;
    state.scores[side] = String(score);
    state.auto = side;
    const input = el.querySelector(`[data-path="scores[${side}]"] input`);
    if (input) { input.value = state.scores[side]; input.classList.add('auto'); }
  }

  function scoreField(side, i) {
    const input = h('input', { type: 'number', inputmode: 'numeric', value: state.scores[i],
      'aria-label': t('sc.score_of', { name: side.name }), class: i === state.auto ? 'auto' : '' });
    input.addEventListener('input', () => {
      state.scores[i] = input.value;
      input.classList.remove('auto');
      if (state.auto === i) state.auto = -1;
      else if (state.auto >= 0) {
        // The filled-in score depended on the others: ask again.
        state.scores[state.auto] = '';
        const auto = el.querySelector(`[data-path="scores[${state.auto}]"] input`);
        if (auto) { auto.value = ''; auto.classList.remove('auto'); }
        state.auto = -1;
      }
      ask();
    });
    const negate = h('button', { type: 'button', class: 'step', 'aria-label': t('sc.negate', { name: side.name }),
      onclick: () => {
        const v = input.value;
        input.value = v.startsWith('-') ? v.slice(1) : `-${v}`;
        input.dispatchEvent(new Event('input'));
      } }, '±');
    return h('label', { class: 'score-line', 'data-path': `scores[${i}]` },
      h('span', {}, side.name), input, negate);
  }

  const tricksBox = h('div', { 'data-path': 'tricks' });
  function drawTricks() {
    if (!(state.guide?.needs_tricks || state.tricks.some((x) => x !== ''))) {
      replace(tricksBox);
      return;
    }
    if (tricksBox.childElementCount) return;
    replace(tricksBox, h('p', { class: 'hint' }, t('sc.tricks_needed')), teamSides.map((side, i) => {
      const input = h('input', { type: 'number', inputmode: 'numeric', min: 0, value: state.tricks[i],
        'aria-label': t('sc.tricks_of', { name: side.name }) });
      input.addEventListener('input', () => { state.tricks[i] = input.value; });
      return h('label', { class: 'score-line', 'data-path': `tricks[${i}]` }, h('span', {}, side.name), input);
    }));
  }

  function drawPoints() {
    replace(tricksBox);
    return [
      h('fieldset', { class: 'field', 'data-path': 'scores' }, h('legend', {}, t('sc.scores')),
        teamSides.map(scoreField)),
      choice({ label: t('sc.trump_zero'), selected: state.trump_zero, path: 'trump_zero',
        options: teamSides.map((side, i) => ({ value: i, label: side.name })),
        onSelect: (i) => { state.trump_zero = i; ask(); } }),
      solo && h('label', { class: 'check', 'data-path': 'has_eight' },
        h('input', { type: 'checkbox', checked: state.has_eight,
          onchange: (e) => { state.has_eight = e.target.checked; } }), t('sc.has_eight')),
      tricksBox,
    ];
  }

  // The deck can come from the guide (suits inferred from an earlier round): redraw when it does.
  const deckKey = () => String(state.guide?.deck?.length ?? 0);

  function drawCards() {
    const values = state.guide?.deck ? null : deckValues(game, match.players.length);
    const deck = state.guide?.deck || suits.flatMap((s) => (values || []).map((v) => `${s}-${v}`));
    const rows = (state.guide?.suits || suits).map((suit) => ({
      label: t(`sc.suit.${suit}`),
      cards: deck.filter((id) => id.startsWith(`${suit}-`)).map((id) => ({
        id, label: id.split('-')[1], kind: `suit-${suit}`, name: cardName(id),
      })),
    })).filter((row) => row.cards.length);
    grid = cardGrid({
      rows, piles: state.piles, paths: teamSides.map((_, i) => `captured[${i}]`),
      pileLabel: (i) => teamSides[i].name,
      pileNote: (i) => (state.guide?.pile_points?.[i] != null
        ? t('sc.points', { n: state.guide.pile_points[i] }) : null),
      onChange: ask,
      start: grid?.active(),
    });
    grid.rows = deckKey();
    return [h('div', { 'data-path': 'captured' }), grid.el];
  }

  function draw() {
    if (state.mode === 'points') grid = null;
    replace(body, state.mode === 'points' ? drawPoints() : drawCards());
  }

  replace(el, modeChoice(), trumpChoice(), body, hint);
  draw();
  ask();

  // Asked again by the sheet once the connection is back, if it could not be asked before.
  return { el, entry: partial, reguide: () => { if (!state.guide) ask(); } };
}
