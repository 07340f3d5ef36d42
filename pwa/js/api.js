// Fetch wrapper for /api/v1: JSON in and out, the match's token as Authorization, problem details
// turned into a Problem whose `errors` name the fields. Every write names this device (X-Device-Id).
import { deviceId, readToken, writeToken } from './store.js';

const BASE = '/api/v1';

export class Problem extends Error {
  constructor(status, body) {
    const detail = (body && (body.detail || body.title)) || `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.errors = (body && Array.isArray(body.errors)) ? body.errors : [];
  }
}

/** The request never reached the server (offline, DNS, connection reset). */
export class Unreachable extends Error {}

export function authHeaders(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * `write` picks the match's edit token, otherwise the best token held for reading.
 * Returns parsed JSON (or null for 204).
 */
export async function call(path, { method = 'GET', body, match, write = false, headers = {} } = {}) {
  const token = match ? (write ? writeToken(match) : readToken(match)) : null;
  const all = { Accept: 'application/json', ...authHeaders(token), ...headers };
  if (method !== 'GET') all['X-Device-Id'] = deviceId();
  if (body !== undefined) all['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(BASE + path, {
      method, headers: all, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Unreachable('unreachable');
  }
  return readResponse(response);
}

export async function readResponse(response) {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') || '';
  const data = type.includes('json') ? await response.json().catch(() => null) : null;
  if (!response.ok) throw new Problem(response.status, data);
  return data;
}

let gamesCache = null;
export async function games() {
  gamesCache ??= call('/games').catch((error) => { gamesCache = null; throw error; });
  return gamesCache;
}

export async function game(id) {
  return (await games()).find((g) => g.id === id);
}

export const getMatch = (id) => call(`/matches/${encodeURIComponent(id)}`, { match: id });

/** Running numbers for a partly entered round; null when the API cannot be asked right now. */
export async function guide(id, partial, round) {
  const query = round ? `?round=${round}` : '';
  try {
    const answer = await call(`/matches/${encodeURIComponent(id)}/guide${query}`,
      { method: 'POST', body: partial, match: id });
    return answer.guide ?? answer;
  } catch {
    return null;
  }
}
