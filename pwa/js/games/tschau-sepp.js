// Tschau Sepp entry: tap who went out, then each other player's cards left, as the match's table
// asks: a card grid (penalty points per hand from the guide) or points typed in (tapping the
// winner moves on to the first of them, the keyboard's Enter to the next; a total no hand can be
// worth is said at its field by the guide as it is typed); the `count` table asks only how many
// cards. With `wins` scoring the winner is all there is to enter.
// Cards are named as the match's `card_faces` option says the table's deck is printed: Swiss
// German suits (Rosen, Schellen, Schilten, Eicheln; Banner, Under, Ober, König, Ass) or French
// ones (Herz, Karo, Pik, Kreuz; 10, Bube, Dame, König, Ass); the ids stay the Swiss German ones.
import { debounce, h, replace } from '../dom.js';
import { number, t } from '../i18n.js';
import { cardGrid } from './card-grid.js';
import { choice, focusNextEmpty, stepper } from './controls.js';

const SUITS = ['rosen', 'schellen', 'schilten', 'eicheln'];
export const RANKS = ['6', '7', '8', '9', 'banner', 'under', 'ober', 'koenig', 'ass'];
const NUMBERS = new Set(['6', '7', '8', '9']);
const MODE_KEY = 'tafelrunde.tschau-sepp.mode';

export const sides = (match) => match.players.map((p) => ({ seats: [p.seat], name: p.name }));

/** A match played for wins is charted by its wins first: its penalty points are only kept. */
export const chartTotals = (match) => (match.options.scoring === 'wins' ? ['wins'] : []);

export function roundCells(match, round) {
  const winner = round.result.winner;
  return round.result.penalty.map((p, seat) => (seat === winner ? '★' : number(p)));
}

/** The deck a match is played with: `swiss` (the default) or `french`. */
export const facesOf = (options) => (options?.card_faces === 'french' ? 'french' : 'swiss');

export const suitName = (suit, faces) => t(`ts.${faces}.suit.${suit}`);
export const rankName = (rank, faces) => (NUMBERS.has(rank) ? rank : t(`ts.${faces}.rank.${rank}`));
const rankShort = (rank, faces) => (NUMBERS.has(rank) ? rank : t(`ts.${faces}.short.${rank}`));

/** A card as the table says it: "Rosen-Ass", "as de rose", "asso di rose" (the suit in its
 * `of` form: French elides "d’écusson", and a suit inside a name is not capitalised). */
export function cardName(id, faces) {
  const [suit, rank] = id.split('-');
  return t('ts.card', { suit: t(`ts.${faces}.of.${suit}`), rank: rankName(rank, faces) });
}

export function entryForm({ match, initial, guide, report }) {
  const n = match.players.length;
  const { scoring, table } = match.options;
  const copies = match.options.decks || 1;
  const faces = facesOf(match.options);
  const name = (seat) => match.players[seat].name;
  const state = {
    winner: initial?.winner ?? null,
    mode: initial?.hands ? 'cards' : initial?.penalty ? 'points'
      : (localStorage.getItem(MODE_KEY) || 'cards'),
    hands: initial?.hands ? initial.hands.map((x) => [...x]) : Array.from({ length: n }, () => []),
    counts: initial?.cards_left ? [...initial.cards_left] : Array(n).fill(1),
    points: initial?.penalty ? initial.penalty.map(String) : Array(n).fill(''),
    guide: null,
  };
  const el = h('div', { class: 'entry tschau-sepp' });
  const body = h('div');
  let grid = null;
  let pointInputs = [];

  const ask = debounce(async () => {
    if (scoring === 'wins') return;
    const answer = await guide(entry());
    if (!answer) return;
    state.guide = answer;
    report(answer.errors);
    if (grid) grid.draw();
  }, 120);

  /** Whether hand i can take n more cards: what one hand and all of them can hold (the guide's). */
  function canTake(i, n) {
    const most = state.guide?.hand_cards;
    const held = state.hands.reduce((sum, hand) => sum + hand.length, 0);
    return !!most && state.hands[i].length + n <= most.most && held + n <= most.together;
  }

  function others() {
    return match.players.map((p) => p.seat).filter((s) => s !== state.winner);
  }

  function drawCards() {
    const rows = SUITS.map((suit) => ({
      label: suitName(suit, faces),
      cards: RANKS.map((rank) => ({ id: `${suit}-${rank}`, label: rankShort(rank, faces),
        kind: `ts-${suit}`, name: cardName(`${suit}-${rank}`, faces) })),
    }));
    const perSeat = () => state.guide?.penalty || state.guide?.points || state.guide?.hand_points;
    grid = cardGrid({
      rows, piles: state.hands, copies, paths: state.hands.map((_, i) => `hands[${i}]`),
      selectable: (i) => i !== state.winner,
      pileLabel: name,
      pileNote: (i) => (perSeat()?.[i] != null ? t('ts.points', { n: perSeat()[i] }) : null),
      canTake,
      onChange: ask,
    });
    return grid.el;
  }

  function drawPoints() {
    const lines = others().map((seat, i) => {
      const input = h('input', { type: 'number', inputmode: 'numeric', enterkeyhint: 'next', min: 0,
        value: state.points[seat], 'aria-label': t('ts.points_of', { name: name(seat) }) });
      input.addEventListener('input', () => { state.points[seat] = input.value; ask(); });
      input.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        focusNextEmpty(pointInputs, i);
      });
      return h('div', { class: 'score-line', 'data-path': `penalty[${seat}]` },
        h('span', { class: 'name' }, name(seat)), input);
    });
    pointInputs = lines.map((line) => line.querySelector('input'));
    return [h('div', { class: 'score-head', id: 'ts-points' }, t('ts.points_head')),
      h('div', { role: 'group', 'aria-labelledby': 'ts-points' }, lines)];
  }

  function drawCounts() {
    return others().map((seat) => stepper({ label: t('ts.cards_of', { name: name(seat) }),
      value: state.counts[seat], min: 1, max: 36 * copies, path: `cards_left[${seat}]`,
      onChange: (v) => { state.counts[seat] = v; } }));
  }

  function draw() {
    grid = null;
    pointInputs = [];
    if (state.winner == null) {
      replace(body, h('p', { class: 'hint' }, t('ts.pick_winner')));
      return;
    }
    if (scoring === 'wins') {
      replace(body, h('p', { class: 'hint' }, t('ts.wins_only')));
      return;
    }
    if (table === 'count') {
      replace(body, h('h3', {}, t('ts.cards_left')), drawCounts());
      return;
    }
    replace(body, state.mode === 'cards' ? drawCards() : drawPoints());
    ask();
  }

  // How the cards left are entered, beside the round's heading; the count table and wins scoring
  // have only one way.
  const tools = scoring === 'penalty' && table !== 'count' && choice({
    label: t('ts.enter_as'), selected: state.mode, className: 'segmented', hideLabel: true,
    options: [{ value: 'cards', label: t('ts.mode.cards') }, { value: 'points', label: t('ts.mode.points') }],
    onSelect: (mode) => { state.mode = mode; localStorage.setItem(MODE_KEY, mode); draw(); },
  });

  function entry() {
    const out = {};
    if (state.winner != null) out.winner = state.winner;
    if (scoring === 'wins' || state.winner == null) return out;
    if (table === 'count') {
      out.cards_left = state.counts.map((c, seat) => (seat === state.winner ? 0 : c));
    } else if (state.mode === 'cards') {
      out.hands = state.hands.map((hand, seat) => (seat === state.winner ? [] : hand));
    } else {
      out.penalty = state.points.map((p, seat) => (seat === state.winner ? 0 : (p === '' ? null : Number(p))));
    }
    return out;
  }

  replace(el, choice({ label: t('ts.winner'), selected: state.winner, path: 'winner',
    options: match.players.map((p) => ({ value: p.seat, label: p.name })),
    onSelect: (seat) => {
      state.winner = seat;
      state.hands[seat] = [];
      state.points[seat] = '';
      draw();
      if (pointInputs.every((input) => input.value === '')) pointInputs[0]?.focus();
    } }), body);
  draw();
  return { el, tools, entry };
}
