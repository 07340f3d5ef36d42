// What this device remembers: recent matches, tournaments and clubs, player names, and the tokens
// of each.
const RECENT = 'tafelrunde.recent';
const NAMES = 'tafelrunde.names';
const PLACES = 'tafelrunde.places';
const TOKENS = 'tafelrunde.tokens';
const MAX_RECENT = 30;
const MAX_NAMES = 60;

function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
const write = (key, value) => localStorage.setItem(key, JSON.stringify(value));

export const recentMatches = () => read(RECENT, []);

export function rememberMatch(match) {
  const entry = {
    id: match.id, game: match.game, players: match.players.map((p) => p.name),
    status: match.status, rounds: match.rounds.length, seen: new Date().toISOString(),
    // A score pad is listed by the game it keeps (Jass), not as "Score pad".
    ...(match.options?.title ? { title: match.options.title } : {}),
  };
  const others = recentMatches().filter((m) => m.id !== match.id);
  write(RECENT, [entry, ...others].slice(0, MAX_RECENT));
}

const FORGOTTEN = 'tafelrunde.forgotten';

/**
 * Matches and tournaments taken off this device's lists, newest first, as they were listed
 * ({kind: 'match' | 'tournament', entry}): a way back from a tap on ×. Forgetting never drops a
 * token (a match's tokens stay under TOKENS, a tournament's travel with its entry).
 */
export const forgotten = () => read(FORGOTTEN, []);

function putAside(kind, entry) {
  if (!entry) return;
  const others = forgotten().filter((item) => !(item.kind === kind && item.entry.id === entry.id));
  write(FORGOTTEN, [{ kind, entry }, ...others].slice(0, MAX_RECENT));
}

export function forgetMatch(id) {
  putAside('match', recentMatches().find((m) => m.id === id));
  write(RECENT, recentMatches().filter((m) => m.id !== id));
}

/** Puts a forgotten match or tournament back at the top of its list. */
export function bringBack(kind, id) {
  const item = forgotten().find((x) => x.kind === kind && x.entry.id === id);
  if (!item) return;
  write(FORGOTTEN, forgotten().filter((x) => !(x.kind === kind && x.entry.id === id)));
  const key = { match: RECENT, tournament: TOURNAMENTS, club: CLUBS }[kind];
  write(key, [item.entry, ...read(key, []).filter((x) => x.id !== id)].slice(0, MAX_RECENT));
}

export const rememberedNames = () => read(NAMES, []);

export function rememberNames(names) {
  const old = rememberedNames().filter((n) => !names.includes(n));
  write(NAMES, [...names, ...old].slice(0, MAX_NAMES));
}

/** Where this phone's matches were played, the latest first (offered for the next one). */
export const rememberedPlaces = () => read(PLACES, []);

export function rememberPlace(place) {
  if (!place) return;
  const old = rememberedPlaces().filter((p) => p.toLocaleLowerCase() !== place.toLocaleLowerCase());
  write(PLACES, [place, ...old].slice(0, MAX_NAMES));
}

export const tokensFor = (id) => read(TOKENS, {})[id] || {};

/**
 * Keeps the stronger token: an edit token is never replaced by a view token. A table link also
 * names the match's place in its tournament ({id, round, table}); an organiser's token is marked so
 * it is never offered as a share link. A table phone's key ({id, key}) stays with its match. A
 * club's match keeps its club's id (a rematch is the club's).
 */
export function storeTokens(id, { token, view, tournament, club, organiser = false, phone }) {
  const all = read(TOKENS, {});
  const had = all[id] || {};
  all[id] = { token: token || had.token, view: view || had.view, tournament: tournament || had.tournament,
    club: club || had.club, organiser: token ? organiser : had.organiser, phone: phone || had.phone };
  write(TOKENS, all);
}

/** The key this phone got from the server for a tournament table's match, if it has one. */
export const tablePhone = (id) => tokensFor(id).phone || null;

export const writeToken = (id) => tokensFor(id).token || null;
export const readToken = (id) => tokensFor(id).token || tokensFor(id).view || null;

const TOURNAMENTS = 'tafelrunde.tournaments';
const DEVICE = 'tafelrunde.device';

/** Tournaments opened on this device, newest first, with the organiser or view token if held. */
export const recentTournaments = () => read(TOURNAMENTS, []);

/** `tokens.club`: the club a tournament was created for on this phone (its members are offered). */
export function rememberTournament(tournament, tokens = {}) {
  const had = recentTournaments().find((x) => x.id === tournament.id) || {};
  const entry = { id: tournament.id, name: tournament.name, game: tournament.game,
    token: tokens.token || had.token || null, view: tokens.view || had.view || null,
    club: tokens.club || had.club || null,
    // A score pad's tournament is listed by the game it keeps (Jass), as a match is.
    ...(tournament.options?.title ? { title: tournament.options.title } : {}) };
  const others = recentTournaments().filter((x) => x.id !== tournament.id);
  write(TOURNAMENTS, [entry, ...others].slice(0, MAX_RECENT));
}

export function forgetTournament(id) {
  putAside('tournament', recentTournaments().find((x) => x.id === id));
  write(TOURNAMENTS, recentTournaments().filter((x) => x.id !== id));
}

export const organiserToken = (id) => recentTournaments().find((x) => x.id === id)?.token || null;
export const tournamentReadToken = (id) => {
  const held = recentTournaments().find((x) => x.id === id);
  return held?.token || held?.view || null;
};

const CHECKED_IN = 'tafelrunde.checked-in';

/**
 * The player this phone checked in as, per tournament ({player, token}): the token reads that
 * player's own view (in a private tournament too) and writes nothing.
 */
export const checkedIn = (id) => read(CHECKED_IN, {})[id] || null;

export function rememberCheckIn(id, player, token) {
  write(CHECKED_IN, { ...read(CHECKED_IN, {}), [id]: { player, token } });
}

/**
 * A random UUID (version 4). crypto.randomUUID exists only in a secure context, and a phone that
 * opens the app over plain http on the club's network (README, "At the table") is not one;
 * crypto.getRandomValues works everywhere.
 */
export function randomId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A random id of this browser, sent with writes so the server tells the entering phone from the confirming one. */
export function deviceId() {
  let id = localStorage.getItem(DEVICE);
  if (!id) {
    id = randomId();
    localStorage.setItem(DEVICE, id);
  }
  return id;
}

const CLUBS = 'tafelrunde.clubs';

/**
 * Clubs opened on this device, newest first, with the club token (a member's phone: starts the
 * club's matches) and the view token where held. Forgetting keeps both with the entry.
 */
export const recentClubs = () => read(CLUBS, []);

export function rememberClub(club, tokens = {}) {
  const had = recentClubs().find((x) => x.id === club.id) || {};
  const entry = { id: club.id, name: club.name || had.name || null,
    token: tokens.token || had.token || null, view: tokens.view || had.view || null };
  write(CLUBS, [entry, ...recentClubs().filter((x) => x.id !== club.id)].slice(0, MAX_RECENT));
}

export function forgetClub(id) {
  putAside('club', recentClubs().find((x) => x.id === id));
  write(CLUBS, recentClubs().filter((x) => x.id !== id));
}

/** The club's tokens held here: `token` (member) and `view`, each null when not held. */
export function clubTokens(id) {
  const held = recentClubs().find((x) => x.id === id);
  return { token: held?.token || null, view: held?.view || null };
}
