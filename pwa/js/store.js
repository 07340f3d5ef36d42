// What this device remembers: recent matches, player names, and the tokens of each match.
const RECENT = 'tafelrunde.recent';
const NAMES = 'tafelrunde.names';
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
  };
  const others = recentMatches().filter((m) => m.id !== match.id);
  write(RECENT, [entry, ...others].slice(0, MAX_RECENT));
}

export function forgetMatch(id) {
  write(RECENT, recentMatches().filter((m) => m.id !== id));
}

export const rememberedNames = () => read(NAMES, []);

export function rememberNames(names) {
  const old = rememberedNames().filter((n) => !names.includes(n));
  write(NAMES, [...names, ...old].slice(0, MAX_NAMES));
}

export const tokensFor = (id) => read(TOKENS, {})[id] || {};

/** Keeps the stronger token: an edit token is never replaced by a view token. */
export function storeTokens(id, { token, view }) {
  const all = read(TOKENS, {});
  const had = all[id] || {};
  all[id] = { token: token || had.token, view: view || had.view };
  write(TOKENS, all);
}

export const writeToken = (id) => tokensFor(id).token || null;
export const readToken = (id) => tokensFor(id).token || tokensFor(id).view || null;
