// What every club screen shares: loading the club with this phone's token, the tab bar, the
// error page (a club is read with one of its links only), and opening a match or tournament of
// the club's history on this phone.
import { Problem } from '../api.js';
import { h, replace } from '../dom.js';
import { number, t } from '../i18n.js';
import { followEvents, oneAtATime } from '../live.js';
import { problemText } from '../match-view.js';
import { clubTokens, rememberClub, storeTokens, tokensFor } from '../store.js';
import { getClub } from './api.js';

/** Members as the club's lists show them: who played most first, then by name. */
export const byPlayed = (members) => [...members].sort((a, b) => b.played - a.played || a.name.localeCompare(b.name));

export const clubRoute = (id, rest = '') => `#/c/${encodeURIComponent(id)}${rest}`;

/** The club as the API reads it for this phone; `canWrite` when the phone holds the club token. */
export async function loadClub(id) {
  const club = await getClub(id);
  rememberClub(club);
  return { club, canWrite: !!clubTokens(id).token };
}

/**
 * Follows the club's event stream: `reload()` (one at a time) whenever the club changed since
 * `version()`, the version the screen shows: a match finished or corrected on another phone, a
 * member renamed. Returns the stop function the router calls when the screen goes.
 */
export function followClub(id, version, reload) {
  const { token, view } = clubTokens(id);
  return followEvents(`/api/v1/clubs/${encodeURIComponent(id)}/events`, token || view,
    { version, refresh: oneAtATime(reload) });
}

export function clubHeader(view, active) {
  const { club } = view;
  const tabs = [['members', '', 'club.tab.members'], ['ladder', '/ladder', 'club.tab.ladder'],
    ['season', '/season', 'club.tab.season'], ['history', '/history', 'club.tab.history'],
    ['settlement', '/settlement', 'kasse.tab.settlement'], ['kasse', '/kasse', 'kasse.tab.kasse'],
    ['share', '/share', 'club.tab.share']];
  return h('div', { class: 'match-head club-head' },
    h('h1', {}, club.name, h('small', {}, ` · ${t('club.matches_played', { n: club.finished_matches })}`)),
    !view.canWrite && h('p', { class: 'hint read-only' }, t('club.read_only')),
    h('nav', { class: 'tabs', 'aria-label': t('club.nav') }, tabs.map(([key, path, label]) => h('a', {
      href: clubRoute(club.id, path), 'aria-current': key === active ? 'page' : null }, t(label)))));
}

/** Why a club could not be read: a missing or wrong link, an unknown club, or the API's words. */
export function clubProblem(error) {
  if (error instanceof Problem && (error.status === 401 || error.status === 403)) return t('club.error.key');
  if (error instanceof Problem && error.status === 404) return t('club.error.not_found');
  return problemText(error);
}

export function clubError(root, error) {
  replace(root, h('section', { class: 'panel' }, h('h1', {}, t('error.title')),
    h('p', { role: 'alert' }, clubProblem(error)), h('a', { class: 'button', href: '#/' }, t('nav.home'))));
}

/**
 * A match of the club opens with the club token on a member's phone (the club token writes the
 * club's own matches), kept like an organiser's token so it is never offered in a match's share
 * link; a token the phone already holds for the match stays.
 */
export function entryLink(clubId, entry, ...children) {
  const href = entry.kind === 'match' ? `#/m/${encodeURIComponent(entry.id)}` : `#/t/${encodeURIComponent(entry.id)}`;
  return h('a', { href, class: 'entry-link', onclick: () => {
    const { token } = clubTokens(clubId);
    if (entry.kind !== 'match') return;
    storeTokens(entry.id, { club: clubId, ...(token && !tokensFor(entry.id).token ? { token, organiser: true } : {}) });
  } }, children);
}

/** A rating as the ladder shows it: ordinal with one decimal. */
export const rating = (value) => number(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const percent = (value) => number(value, { style: 'percent', maximumFractionDigits: 0 });
