// A grid of every card in play, assigned to piles (Sea Change piles, Tschau Sepp hands): pick the
// pile, then tap cards. A card shows whose pile it is in; `copies` > 1 allows two decks.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

/**
 * rows: [{label, cards: [{id, label, kind}]}]; piles: arrays of card ids (mutated in place);
 * pileLabel(i) → name; pileNote(i) → text shown under the pile's name (running points);
 * paths: data-path of each pile, where API errors about it appear; start: the pile picked first
 * (a grid redrawn for a new deck keeps the pile being entered); canTake(i, n): whether pile i can
 * take n more cards, so "give the rest" is offered only where the rest fits (a hand's size, whole
 * tricks).
 */
export function cardGrid({ rows, piles, copies = 1, pileLabel, pileNote, paths, onChange,
  selectable = () => true, start = piles.findIndex((_, i) => selectable(i)), canTake = () => true }) {
  let active = start;
  const tabs = h('div', { class: 'piles', role: 'radiogroup', 'aria-label': t('cards.pile') });
  const grid = h('div', { class: 'card-grid' });
  const fill = h('button', { type: 'button', class: 'secondary', onclick: () => {
    const rest = unassigned();
    piles[active].push(...rest);
    changed();
  } });

  const used = (id) => piles.reduce((n, pile) => n + pile.filter((c) => c === id).length, 0);
  const unassigned = () => rows.flatMap((row) => row.cards)
    .flatMap((card) => Array(Math.max(0, copies - used(card.id))).fill(card.id));

  function tap(id) {
    const pile = piles[active];
    const at = pile.indexOf(id);
    if (at >= 0) {
      pile.splice(at, 1);
    } else if (used(id) < copies) {
      pile.push(id);
    } else {
      // All copies are elsewhere: move one here, the usual fix for a mis-tap.
      const from = piles.findIndex((p) => p.includes(id));
      piles[from].splice(piles[from].indexOf(id), 1);
      pile.push(id);
    }
    changed();
  }

  function changed() {
    draw();
    onChange();
  }

  // The buttons are made once and only updated by draw(): a tap whose press and release straddle
  // a redraw (a guide's answer arriving meanwhile) would otherwise press one button and release
  // another, and the browser would drop the click.
  const pileButtons = piles.map((_, i) => selectable(i) && h('button', {
    type: 'button', role: 'radio', class: 'pile', 'data-path': paths[i],
    onclick: () => { active = i; draw(); },
  }));
  const cardButtons = [];
  replace(tabs, pileButtons);
  replace(grid, rows.map((row) => h('div', { class: 'card-row', role: 'group', 'aria-label': row.label },
    h('span', { class: 'row-label', 'aria-hidden': 'true' }, row.label),
    row.cards.map((card) => {
      const button = h('button', { type: 'button', 'data-card': card.id, onclick: () => tap(card.id) });
      cardButtons.push({ card, button });
      return button;
    }))));

  function draw() {
    pileButtons.forEach((button, i) => {
      if (!button) return;
      button.setAttribute('aria-checked', String(i === active));
      replace(button, h('strong', {}, pileLabel(i)), h('span', {}, t('cards.count', { n: piles[i].length })),
        pileNote(i) != null && h('span', { class: 'note' }, pileNote(i)));
    });
    for (const { card, button } of cardButtons) {
      const mine = piles[active].filter((c) => c === card.id).length;
      const owners = piles.map((p, i) => (i !== active && p.includes(card.id) ? i : -1))
        .filter((i) => i >= 0);
      const free = copies - used(card.id);
      button.className = `card ${card.kind}${free ? ' free' : ''}`;
      button.setAttribute('aria-pressed', String(mine > 0));
      button.setAttribute('aria-label',
        `${card.name}${owners.length ? ` (${owners.map(pileLabel).join(', ')})` : ''}`);
      replace(button, card.label, owners.length > 0 && h('small', { 'aria-hidden': 'true' },
        owners.map((i) => pileLabel(i).slice(0, 2)).join(' ')));
    }
    const rest = unassigned().length;
    fill.textContent = t('cards.rest_here', { n: rest, name: pileLabel(active) });
    fill.hidden = rest === 0 || !canTake(active, rest);
  }

  draw();
  return { el: h('div', { class: 'card-entry' }, tabs, grid, fill), draw, unassigned, active: () => active };
}
