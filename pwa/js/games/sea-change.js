// Sea Change entry. Points mode: the trump at round end, then one number per side (the keyboard's
// Enter goes on to the next side); once all but one are typed the API's guide fills in the last
// from the checksum (`last_score`), again whenever another changes, also when a round is
// corrected; who took the trump 0 is a tap on that side's line. Offline (or before the guide has
// answered, when Save comes first) the last score is filled the one way the guide fills it: the
// deck's checksum from /games less the scores typed, once every other score is a whole number.
// Nothing else is computed here. Offline, a points round missing what /games says it requires
// (`entry_modes.points.required`: the trump, every score, the trump 0) is not queued: `missing`
// names each such field, so it is said now and not refused on reconnect. Card mode: the suits in play first
// (when neither the match's options nor an earlier round say them), then a card grid per pile
// with the guide's running pile points.
// Decisions: points mode is the default (fastest at a table that counts on paper); the chosen
// mode is remembered per device. Picking the trump moves on to the first score, so a round is
// typed without reaching for the next field. The suits are asked as "which are not in play",
// all shown at first: with four players that is one tap.
import { debounce, h, replace } from '../dom.js';
import { number, t } from '../i18n.js';
import { cardGrid } from './card-grid.js';
import { choice, focusNextEmpty } from './controls.js';

const MODE_KEY = 'tafelrunde.sea-change.mode';

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

/** What the ★ in a round's cell means. */
export const legend = () => t('tidy.star_legend');

export const cardName = (id) => {
  const [suit, value] = id.split('-');
  return `${t(`sc.suit.${suit}`)} ${value}`;
};

const suitIds = (game) => game.suits.map((s) => (typeof s === 'string' ? s : s.id));

export function entryForm({ match, game, initial, guide, report }) {
  const teamSides = sides(match);
  const n = teamSides.length;
  const solo = match.players.length === 1;
  // What /games says about this many players' deck: suits in play, values, trick size, checksum.
  const rule = game.decks[String(match.players.length)];
  const everySuit = suitIds(game);
  const state = {
    mode: initial ? (initial.captured ? 'cards' : 'points') : (localStorage.getItem(MODE_KEY) || 'points'),
    final_trump: initial?.final_trump ?? null,
    scores: initial?.scores ? initial.scores.map((x) => (x == null ? '' : String(x))) : Array(n).fill(''),
    // The score the guide fills in: a correction starts with the last side's, so it follows the others.
    auto: initial?.scores ? n - 1 : -1,
    trump_zero: initial?.trump_zero ?? null,
    tricks: initial?.tricks ? initial.tricks.map(String) : Array(n).fill(''),
    has_eight: initial?.has_eight ?? false,
    piles: initial?.captured ? initial.captured.map((p) => [...p]) : Array.from({ length: n }, () => []),
    left_out: [], // suits tapped as not in play, while the deck is not known
    guide: null,
  };
  const el = h('div', { class: 'entry sea-change' });
  const trump = h('div');
  const body = h('div');
  const hint = h('p', { class: 'hint', 'aria-live': 'polite' });
  let grid = null;
  let scoreInputs = [];

  /** The suits in play when known: from the options, an earlier round, the cards, or the taps here. */
  function suitsInPlay() {
    if (match.options.suits?.length) return match.options.suits;
    if (state.guide?.suits) return state.guide.suits;
    if (rule.suits_in_play === everySuit.length) return everySuit;
    const kept = everySuit.filter((s) => !state.left_out.includes(s));
    return kept.length === rule.suits_in_play ? kept : null;
  }

  const tools = choice({
    label: t('sc.mode'), selected: state.mode, className: 'segmented', hideLabel: true,
    options: [{ value: 'points', label: t('sc.mode.points') }, { value: 'cards', label: t('sc.mode.cards') }],
    onSelect: (mode) => { state.mode = mode; localStorage.setItem(MODE_KEY, mode); draw(); ask(); },
  });

  function drawTrump() {
    const shown = suitsInPlay() || everySuit;
    trump.dataset.suits = shown.join();
    replace(trump, choice({
      label: t('sc.final_trump'), selected: state.final_trump, path: 'final_trump', className: 'suits',
      options: shown.map((s) => ({ value: s, label: t(`sc.suit.${s}`), className: `suit-${s}` })),
      onSelect: (suit) => {
        state.final_trump = suit;
        el.dataset.trump = suit;
        ask();
        if (state.mode === 'points' && state.scores.every((s) => s === '')) scoreInputs[0]?.focus();
      },
    }));
  }

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
    if (answer === undefined) return;
    state.guide = answer;
    if (!answer) {
      hint.textContent = navigator.onLine || state.mode !== 'points' ? '' : t('sc.no_help_offline');
      if (state.mode === 'points') fillLast({ last_score: lastScore() });
      return;
    }
    hint.textContent = '';
    report(answer.errors);
    if (trump.dataset.suits !== (suitsInPlay() || everySuit).join()) drawTrump();
    if (state.mode === 'points') {
      fillLast(answer);
      drawTricks();
    } else if (grid && grid.deck === deckKey()) {
      grid.draw();
    } else {
      draw();
    }
  }, 120);

  /** The guide's `last_score` from the checksum /games publishes: the one score not typed. */
  function lastScore() {
    const typed = state.scores.map((x) => (/^-?\d+$/.test(x.trim()) ? Number(x) : null));
    const missing = state.scores.flatMap((x, side) => (x.trim() === '' ? [side] : []));
    if (missing.length !== 1 || typed.filter((x, side) => x != null && side !== missing[0]).length !== n - 1) {
      return null;
    }
    const sum = typed.reduce((total, x, side) => (side === missing[0] ? total : total + x), 0);
    return { side: missing[0], score: rule.checksum - sum };
  }

  function fillLast(answer) {
    const last = answer.last_score;
    if (last == null) return;
    const { side, score } = last;
    if (state.scores[side] !== '' && side !== state.auto) return;
    state.scores[side] = String(score);
    state.auto = side;
    const input = scoreInputs[side];
    if (input) {
      input.value = state.scores[side];
      input.classList.add('auto');
      // Filled, the field is edited: what was said about it empty goes (see form.js).
      input.closest('[data-path]').dispatchEvent(new Event('input', { bubbles: true }));
    }
  }

  /** What /games says a points round requires and is not typed yet, said at its field. */
  function missing() {
    if (state.mode !== 'points') return [];
    const required = game.entry_modes?.points?.required ?? [];
    const round = partial();
    return [
      required.includes('final_trump') && !round.final_trump
        && { path: 'final_trump', message: t('sc.missing_trump') },
      ...(required.includes('scores') ? round.scores.map((x, side) => !Number.isInteger(x)
        && { path: `scores[${side}]`, message: t('sc.missing_score', { name: teamSides[side].name }) }) : []),
      required.includes('trump_zero') && round.trump_zero == null
        && { path: 'trump_zero', message: t('sc.missing_zero') },
    ].filter(Boolean);
  }

  /** The round as Save sends it: in points mode with the last score filled if it can be. */
  function entry() {
    if (state.mode === 'points') fillLast({ last_score: lastScore() });
    return partial();
  }

  function scoreLine(side, i) {
    const input = h('input', { type: 'number', inputmode: 'numeric', enterkeyhint: 'next', value: state.scores[i],
      'aria-label': t('sc.score_of', { name: side.name }), class: i === state.auto ? 'auto' : '' });
    input.addEventListener('input', () => {
      state.scores[i] = input.value;
      input.classList.remove('auto');
      if (state.auto === i) state.auto = -1;
      else if (state.auto >= 0) {
        // The filled-in score depended on the others: ask again.
        state.scores[state.auto] = '';
        scoreInputs[state.auto].value = '';
        scoreInputs[state.auto].classList.remove('auto');
      }
      ask();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      focusNextEmpty(scoreInputs, i);
    });
    const negate = h('button', { type: 'button', class: 'step', 'aria-label': t('sc.negate', { name: side.name }),
      onclick: () => {
        const v = input.value;
        input.value = v.startsWith('-') ? v.slice(1) : `-${v}`;
        input.dispatchEvent(new Event('input'));
      } }, '±');
    const zero = h('label', { class: 'zero-pick', 'data-value': String(i), 'data-edits': 'trump_zero' },
      h('input', { type: 'radio', name: 'trump-zero', class: 'sr-only', checked: state.trump_zero === i,
        'aria-label': t('sc.took_zero', { name: side.name }),
        onchange: () => { state.trump_zero = i; ask(); } }),
      h('span', { 'aria-hidden': 'true' }, '0'));
    return h('div', { class: 'score-line', 'data-path': `scores[${i}]` },
      h('span', { class: 'name' }, side.name), input, negate, zero);
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
      return h('div', { class: 'score-line', 'data-path': `tricks[${i}]` }, h('span', { class: 'name' }, side.name),
        input);
    }));
  }

  function drawPoints() {
    replace(tricksBox);
    const lines = teamSides.map(scoreLine);
    scoreInputs = lines.map((line) => line.querySelector('input[type=number]'));
    return [
      h('div', { class: 'score-board', 'data-path': 'trump_zero' },
        h('div', { class: 'score-head' },
          h('span', { id: 'sc-scores' }, t('sc.scores'), ' ',
            h('span', { class: 'note' }, t('sc.adds_up', { n: state.guide?.checksum ?? rule.checksum }))),
          h('span', { class: 'zero-head', 'aria-hidden': 'true' }, t('sc.zero_head'))),
        h('div', { role: 'group', 'aria-labelledby': 'sc-scores', 'data-path': 'scores' }, lines)),
      solo && h('label', { class: 'check', 'data-path': 'has_eight' },
        h('input', { type: 'checkbox', checked: state.has_eight,
          onchange: (e) => { state.has_eight = e.target.checked; } }), t('sc.has_eight')),
      tricksBox,
    ];
  }

  // The deck can come from the guide (suits inferred from the cards): redraw when it does.
  const deckKey = () => String(state.guide?.deck?.length ?? suitsInPlay()?.join());

  function suitsQuestion() {
    return h('fieldset', { class: 'field', 'data-path': 'captured' },
      h('legend', {}, t('sc.in_play', { n: rule.suits_in_play })),
      h('div', { class: 'choice suits' }, everySuit.map((suit) => h('button', {
        type: 'button', class: `suit-${suit}`, 'aria-pressed': String(!state.left_out.includes(suit)),
        'data-suit': suit, onclick: () => {
          state.left_out = state.left_out.includes(suit) ? state.left_out.filter((s) => s !== suit)
            : [...state.left_out, suit];
          drawTrump();
          draw();
          ask();
        } }, t(`sc.suit.${suit}`)))));
  }

  function drawCards() {
    const known = match.options.suits?.length || state.guide?.suits;
    const suits = suitsInPlay();
    const question = !known && rule.suits_in_play < everySuit.length && suitsQuestion();
    if (!suits) {
      grid = null;
      return [question];
    }
    const deck = state.guide?.deck || suits.flatMap((s) => rule.values.map((v) => `${s}-${v}`));
    const rows = suits.map((suit) => ({
      label: t(`sc.suit.${suit}`),
      cards: deck.filter((id) => id.startsWith(`${suit}-`)).map((id) => ({
        id, label: id.split('-')[1], kind: `suit-${suit}`, name: cardName(id),
      })),
    }));
    const cardsPerTrick = state.guide?.cards_per_trick ?? rule.cards_per_trick;
    grid = cardGrid({
      rows, piles: state.piles, paths: teamSides.map((_, i) => `captured[${i}]`),
      pileLabel: (i) => teamSides[i].name,
      pileNote: (i) => (state.guide?.pile_points?.[i] != null
        ? t('sc.points', { n: state.guide.pile_points[i] }) : null),
      // A pile is whole tricks: the rest goes to one pile only if that leaves it whole.
      canTake: (i, count) => (state.piles[i].length + count) % cardsPerTrick === 0,
      onChange: ask,
      start: grid?.active(),
    });
    grid.deck = deckKey();
    return [question, !question && h('div', { 'data-path': 'captured' }), grid.el];
  }

  function draw() {
    if (state.mode === 'points') grid = null;
    replace(body, state.mode === 'points' ? drawPoints() : drawCards());
  }

  if (state.final_trump) el.dataset.trump = state.final_trump;
  replace(el, trump, body, hint);
  drawTrump();
  draw();
  ask();

  // Asked again by the sheet once the connection is back, if it could not be asked before.
  return { el, tools, entry, missing, reguide: () => { if (!state.guide) ask(); } };
}
