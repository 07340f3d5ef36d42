// Die sieben Siegel entry: the bid round as a seal board in playing order (first bidder left of
// the dealer), then the count at round end. The board keeps the seals' bookkeeping (what is left
// in the middle, who holds what, whites handed out, black seals taken) so a colour that is out is
// taken from a holder with one tap; the penalty points always come from the API.
// At round end each seal a player held is a chip: tap the ones still lying in front of them (one
// tap per seal, as the count goes at the table); black seals are counted beside them, and the
// middle's black count follows at once. The black counters are one block (data-path `black`), so
// "only 6 black seals exist" is said under them.
import { h, replace } from '../dom.js';
import { number, t } from '../i18n.js';
import { stepper } from './controls.js';

const COLOURS = ['red', 'yellow', 'green', 'blue', 'violet'];
const SUPPLY = { red: 5, yellow: 3, green: 3, blue: 3, violet: 3, white: 4, black: 6 };

export const sides = (match) => match.players.map((p) => ({ seats: [p.seat], name: p.name }));

export function roundCells(match, round) {
  return round.result.penalty.map((p, seat) => `${number(p)}${round.result.exact?.[seat] ? ' ✓' : ''}`);
}

function supplyOf(game) {
  const given = game.supply || game.seal_supply;
  return given && typeof given === 'object' && !Array.isArray(given) ? { ...SUPPLY, ...given } : SUPPLY;
}

function readBid(bid) {
  if (!bid) return { seals: [], taken: {} };
  if (bid.saboteur) return { saboteur: true, seals: [], taken: {} };
  const taken = {};
  for (const [colour, from] of Object.entries(bid.taken_from || {})) taken[colour] = [from].flat();
  return { seals: [...(bid.seals || [])], taken };
}

export function entryForm({ match, game, initial, round }) {
  const n = match.players.length;
  const supply = supplyOf(game);
  const first = initial?.first_bidder ?? (round - 1) % n;
  const order = Array.from({ length: n }, (_, i) => (first + i) % n);
  const name = (seat) => match.players[seat].name;
  const bids = Array.from({ length: n }, (_, seat) => readBid(initial?.bids?.[seat]));
  const left = Array.from({ length: n }, (_, seat) => count(initial?.remaining?.[seat] || []));
  const black = Array.from({ length: n }, (_, seat) => initial?.black?.[seat] ?? 0);
  let asking = null; // {seat, colour} while choosing whom to take a colour from
  const el = h('div', { class: 'entry seven-seals' });

  function count(list) {
    const c = {};
    for (const kind of list) c[kind] = (c[kind] || 0) + 1;
    return c;
  }

  /** Holdings after the bids and the middle's remaining supply: bookkeeping only. */
  function ledger() {
    const held = Array.from({ length: n }, () => ({}));
    const middle = { ...supply };
    for (const seat of order) {
      const bid = bids[seat];
      if (bid.saboteur) continue;
      for (const colour of bid.seals) held[seat][colour] = (held[seat][colour] || 0) + 1;
      for (const colour of COLOURS) {
        const fromOthers = bid.taken[colour]?.length || 0;
        const mine = bid.seals.filter((c) => c === colour).length;
        middle[colour] -= mine - fromOthers;
        for (const giver of bid.taken[colour] || []) {
          held[giver][colour] = (held[giver][colour] || 0) - 1;
          held[giver].white = (held[giver].white || 0) + 1;
          middle.white -= 1;
        }
      }
    }
    middle.black -= black.reduce((a, b) => a + b, 0);
    return { held, middle };
  }

  function add(seat, colour, giver = null) {
    bids[seat].seals.push(colour);
    if (giver != null) (bids[seat].taken[colour] ||= []).push(giver);
    asking = null;
    draw();
  }

  function remove(seat, colour) {
    const bid = bids[seat];
    bid.seals.splice(bid.seals.lastIndexOf(colour), 1);
    // Seals taken from others came last: give those back first.
    if (bid.taken[colour]?.length) {
      bid.taken[colour].pop();
      if (!bid.taken[colour].length) delete bid.taken[colour];
    }
    draw();
  }

  function tapColour(seat, colour, middle, held) {
    if (middle[colour] > 0) return add(seat, colour);
    const holders = order.filter((s) => s !== seat && (held[s][colour] || 0) > 0);
    if (!holders.length || middle.white <= 0) return undefined;
    if (holders.length === 1) return add(seat, colour, holders[0]);
    asking = { seat, colour };
    return draw();
  }

  function bidder(seat, turn, { held, middle }) {
    const bid = bids[seat];
    const saboteurTaken = bids.some((b, s) => b.saboteur && s !== seat);
    // The seals taken so far sit beside the name; tapping one puts it back. A seal another
    // player has taken from this one is gone from here at once: the white seal given for it
    // shows in its place (its colour said to a screen reader), and only its taker gives it back.
    const kept = { ...held[seat] };
    const chips = !bid.saboteur && h('div', { class: 'chips', role: 'group',
      'aria-label': t('ss.predicted', { name: name(seat) }) },
    bid.seals.map((colour) => ((kept[colour] = (kept[colour] || 0) - 1) >= 0
      ? h('button', { type: 'button', class: `seal seal-${colour}`, 'data-seal': colour,
        'aria-label': t('ss.remove_seal', { colour: t(`ss.colour.${colour}`) }),
        onclick: () => remove(seat, colour) }, t(`ss.colour.${colour}`), ' ×')
      : h('span', { class: 'seal seal-white small', 'data-white-for': colour,
        title: t('tidy.white_for', { colour: t(`ss.colour.${colour}`) }),
        'aria-label': t('tidy.white_for', { colour: t(`ss.colour.${colour}`) }) }, t('ss.colour.white')))));
    const header = h('div', { class: 'bidder-head' },
      h('strong', {}, `${turn + 1}. ${name(seat)}`), chips,
      h('button', { type: 'button', class: 'toggle', 'aria-pressed': String(!!bid.saboteur),
        disabled: saboteurTaken, onclick: () => {
          bids[seat] = bid.saboteur ? { seals: [], taken: {} } : { saboteur: true, seals: [], taken: {} };
          draw();
        } }, t('ss.saboteur')));
    if (bid.saboteur) {
      return h('li', { class: 'bidder', 'data-path': `bids[${seat}]` }, header, h('p', { class: 'hint' }, t('ss.is_saboteur')));
    }
    const adders = h('div', { class: 'seal-adders' }, COLOURS.map((colour) => {
      const out = middle[colour] <= 0;
      const takeable = order.some((s) => s !== seat && (held[s][colour] || 0) > 0) && middle.white > 0;
      return h('button', { type: 'button', class: `seal seal-${colour}${out ? ' out' : ''}`,
        disabled: out && !takeable, 'data-colour': colour,
        'aria-label': t(out ? 'ss.take_colour' : 'ss.add_colour',
          { colour: t(`ss.colour.${colour}`), n: Math.max(0, middle[colour]) }),
        onclick: () => tapColour(seat, colour, middle, held),
      }, t(`ss.colour.${colour}`), h('span', { class: 'note' }, String(Math.max(0, middle[colour]))));
    }));
    const ask = asking?.seat === seat && h('div', { class: 'take-from', role: 'group',
      'aria-label': t('ss.take_from', { colour: t(`ss.colour.${asking.colour}`) }) },
    h('p', {}, t('ss.take_from', { colour: t(`ss.colour.${asking.colour}`) })),
    order.filter((s) => s !== seat && (held[s][asking.colour] || 0) > 0).map((giver) => h('button',
      { type: 'button', onclick: () => add(seat, asking.colour, giver) }, name(giver))));
    return h('li', { class: 'bidder', 'data-path': `bids[${seat}]` }, header, adders, ask);
  }

  /** One chip per seal `seat` held: pressed while it still lies in front of them at round end. */
  function sealsLeft(seat, held) {
    const kinds = [...COLOURS, 'white'].filter((k) => (held[seat][k] || 0) > 0);
    if (kinds.length === 0) return h('span', { class: 'hint' }, t('ss.no_seals'));
    const chips = h('div', { class: 'chips', role: 'group', 'data-path': `remaining[${seat}]`,
      'aria-label': t('ss.left_of', { name: name(seat) }) });
    const drawChips = () => replace(chips, kinds.flatMap((kind) => {
      const count = Math.min(left[seat][kind] || 0, held[seat][kind]);
      return Array.from({ length: held[seat][kind] }, (_, i) => h('button', {
        type: 'button', class: `seal seal-${kind}`, 'aria-pressed': String(i < count), 'data-kind': kind,
        'aria-label': t('ss.seal_left', { colour: t(`ss.colour.${kind}`) }),
        onclick: () => { left[seat][kind] = i < count ? count - 1 : count + 1; drawChips(); },
      }, t(`ss.colour.${kind}`)));
    }));
    drawChips();
    return chips;
  }

  function endOfRound(seat, held) {
    if (bids[seat].saboteur) return null;
    return h('li', { class: 'counted' }, h('strong', {}, name(seat)), sealsLeft(seat, held),
      stepper({ label: t('ss.black'), spoken: t('ss.black_of', { name: name(seat) }), value: black[seat],
        max: supply.black, path: `black[${seat}]`,
        onChange: (v) => { black[seat] = v; drawMiddle(); } }));
  }

  const middleLine = h('p', { class: 'middle', 'aria-live': 'polite' });
  /** The middle as the seals were taken, and the black seals as they are counted. */
  function drawMiddle() {
    const { middle } = ledger();
    replace(middleLine, t('ss.middle'), ' ', [...COLOURS, 'white', 'black'].map((k) => h('span',
      { class: `seal seal-${k} small`, 'data-kind': k }, `${t(`ss.colour.${k}`)} ${Math.max(0, middle[k])}`)));
    // No black seal left in the middle: nobody can take one more.
    for (const more of el.querySelectorAll('[data-path^="black["] .step:last-child')) {
      more.disabled = middle.black <= 0;
    }
  }

  function draw() {
    const books = ledger();
    replace(el, middleLine,
      h('h3', {}, t('ss.bids')),
      h('ol', { class: 'board', 'data-path': 'bids' }, order.map((seat, turn) => bidder(seat, turn, books))),
      h('h3', {}, t('ss.round_end')),
      h('ul', { class: 'count-board', 'data-path': 'black' }, order.map((seat) => endOfRound(seat, books.held))));
    drawMiddle();
  }

  function entry() {
    const { held } = ledger();
    return {
      bids: bids.map((bid) => {
        if (bid.saboteur) return { saboteur: true };
        const out = { seals: bid.seals };
        const taken = Object.entries(bid.taken).filter(([, seats]) => seats.length);
        if (taken.length) {
          out.taken_from = Object.fromEntries(taken.map(([c, s]) => [c, s.length === 1 ? s[0] : s]));
        }
        return out;
      }),
      remaining: bids.map((bid, seat) => (bid.saboteur ? null
        : [...COLOURS, 'white'].flatMap((k) => Array(Math.min(left[seat][k] || 0, held[seat][k] || 0)).fill(k)))),
      black: black.map((b, seat) => (bids[seat].saboteur ? 0 : b)),
    };
  }

  draw();
  return { el, entry };
}
