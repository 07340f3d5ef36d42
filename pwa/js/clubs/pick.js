// Club members as one-tap chips over the player fields of a new match: a tap seats the member in
// the first empty seat (or a new one), a second tap takes them off again. Names can still be
// typed: a new name becomes a member when the match starts.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { byPlayed } from './common.js';

/** The API's own comparison of names: case and surrounding spaces ignored. */
export const sameName = (a, b) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/** Whether `name` is the member's, by their name or a spelling merged into them. */
const isTheirs = (member, name) => [member.name, ...member.aliases].some((known) => sameName(known, name));

/** Whether `name` is one of the club's members. */
export const isMember = (club, name) => club.players.some((member) => isTheirs(member, name));

/**
 * `members` as the club lists them ({id, name, aliases}); `players` the names in seat order,
 * changed in place; `min` and `max` the game's fewest and most players; `redraw` after a change.
 */
export function memberPicker(members, players, { min, max, redraw }) {
  // A seat typed with a merged spelling ("Anne" for Ann) is that member's seat too.
  const seatOf = (member) => players.findIndex((typed) => isTheirs(member, typed));
  const toggle = (member) => {
    const seat = seatOf(member);
    if (seat >= 0) {
      if (players.length > min) players.splice(seat, 1); else players[seat] = '';
    } else {
      const empty = players.findIndex((typed) => !typed.trim());
      if (empty >= 0) players[empty] = member.name;
      else if (players.length < max) players.push(member.name);
      else return;
    }
    redraw();
  };
  const full = players.every((typed) => typed.trim()) && players.length >= max;
  return h('fieldset', { class: 'field member-picker' }, h('legend', {}, t('club.pick_members')),
    h('p', { class: 'hint' }, t('club.pick_hint')),
    h('div', { class: 'choice' }, byPlayed(members).map((member) => {
      const on = seatOf(member) >= 0;
      return h('button', { type: 'button', 'aria-pressed': String(on), 'data-member': member.id,
        disabled: !on && full, onclick: () => toggle(member) }, member.name);
    })));
}
