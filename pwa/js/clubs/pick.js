// Club members as one-tap chips over the player fields of a new match: a tap seats the member in
// the first empty seat (or a new one), a second tap takes them off again. Names can still be
// typed: a new name becomes a member when the match starts.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { byPlayed } from './members.js';

/** The API's own comparison of names: case and surrounding spaces ignored. */
export const sameName = (a, b) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * `players` is the list of names in seat order, changed in place; `max` the game's most players;
 * `redraw` after every change.
 */
export function memberPicker(members, players, { min, max, redraw }) {
  const seated = (name) => players.some((typed) => sameName(typed, name));
  const toggle = (name) => {
    const seat = players.findIndex((typed) => sameName(typed, name));
    if (seat >= 0) {
      if (players.length > min) players.splice(seat, 1); else players[seat] = '';
    } else {
      const empty = players.findIndex((typed) => !typed.trim());
      if (empty >= 0) players[empty] = name;
      else if (players.length < max) players.push(name);
      else return;
    }
    redraw();
  };
  const full = players.every((typed) => typed.trim()) && players.length >= max;
  return h('fieldset', { class: 'field member-picker' }, h('legend', {}, t('club.pick_members')),
    h('p', { class: 'hint' }, t('club.pick_hint')),
    h('div', { class: 'choice' }, byPlayed(members).map((member) => {
      const on = seated(member.name);
      return h('button', { type: 'button', 'aria-pressed': String(on), 'data-member': member.id,
        disabled: !on && full, onclick: () => toggle(member.name) }, member.name);
    })));
}
