// The round clock on a tournament table's phone, above the score sheet of the table's match: read
// with the token this phone holds for the match (the table's, or the organiser's) from
// GET /tournaments/<id>/clock, which takes a table's token in a private tournament too, and read
// again whenever the tournament's events say it changed. It shows this table's own time where the
// table was given extra, in large digits with the label beside them (clock.js's `inline`).
import { authHeaders, call } from '../api.js';
import { followEvents, oneAtATime } from '../live.js';
import { tokensFor } from '../store.js';
import { clockFace } from './clock.js';

const path = (id) => `/tournaments/${encodeURIComponent(id)}`;

/** `{el, stop}` for the match `matchId` when it is a tournament table's on this phone, else null. */
export function tableClock(matchId) {
  const held = tokensFor(matchId);
  if (!held.tournament) return null;
  const { id, table } = held.tournament;
  const face = clockFace({ table, inline: true });
  let version = null;
  const read = oneAtATime(async () => {
    let reading;
    try {
      reading = await call(`${path(id)}/clock`, { headers: authHeaders(held.token) });
    } catch {
      return; // offline or refused: the sheet works without the clock
    }
    version = reading.version;
    face.update(reading, reading.warn_minutes);
  });
  read();
  const stop = followEvents(`/api/v1${path(id)}/events`, held.token, { version: () => version, refresh: read });
  return { el: face.el, stop: () => { stop(); face.stop(); } };
}
