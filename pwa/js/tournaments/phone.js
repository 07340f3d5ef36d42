// A phone at a tournament table: when it opens the table's link it asks the server for a key of
// its own (X-Table-Phone), so the server can tell the phone that entered a result from the one
// that confirms it (README, "Confirming a table"). Asked once per match and kept with its tokens;
// an organiser, who confirms without one, never asks.
import { call } from '../api.js';
import { storeTokens, tablePhone, tokensFor } from '../store.js';

const asking = new Map();

/** This phone's key at the table of match `matchId` ({id, key}), asked for if it has none yet. */
export function openTablePhone(matchId) {
  const held = tokensFor(matchId);
  if (held.phone) return Promise.resolve(held.phone);
  if (!held.token || held.organiser || !held.tournament) return Promise.resolve(null);
  if (!asking.has(matchId)) {
    const { id, round, table } = held.tournament;
    asking.set(matchId, call(`/tournaments/${encodeURIComponent(id)}/rounds/${round}/tables/${table}/phones`,
      { method: 'POST', match: matchId, write: true })
      .then((phone) => {
        storeTokens(matchId, { phone });
        return tablePhone(matchId);
      })
      .finally(() => asking.delete(matchId)));
  }
  return asking.get(matchId);
}
