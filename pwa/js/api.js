// Fetch wrapper for /api/v1: JSON in and out, the match's token as Authorization, problem details
// turned into a Problem whose `errors` name the fields. Every request asks for the app's language
// (Accept-Language), so the API's words (problems, reasons, option help) arrive ready to show;
// every write names this device (X-Device-Id) and, at a tournament table, this phone's key there
// (X-Table-Phone).
import { h } from './dom.js';
import { language, languageTag } from './i18n.js';
import { deviceId, readToken, tablePhone, writeToken } from './store.js';

const BASE = '/api/v1';
/** The problem type of the service worker's answer to a read it could neither fetch nor find cached. */
export const OFFLINE_PROBLEM = 'tafelrunde:offline';

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || '');
    this.status = status;
    this.errors = (body && Array.isArray(body.errors)) ? body.errors : [];
  }
}

/**
 * The address of an API resource a link opens itself (a download, a printable page in a new tab):
 * such a request carries no header of ours, so the address names the language (?lang=).
 */
export function apiLink(path) {
  return `${BASE}${path}${path.includes('?') ? '&' : '?'}lang=${languageTag()}`;
}

/**
 * The query that lays a CSV export out for this device's spreadsheet (README, Exports): the
 * decimal mark of the phone's own locale (de-CH writes 1.5, de-DE 1,5), and semicolons between
 * columns where that mark is a comma or the app is not in English, as German, Swiss, French and
 * Italian spreadsheets expect.
 */
export function csvLayout() {
  const parts = new Intl.NumberFormat(navigator.language).formatToParts(1.5);
  const decimal = parts.find((part) => part.type === 'decimal')?.value === ',' ? ',' : '.';
  const separator = decimal === ',' || language() !== 'en' ? ';' : ',';
  return `&sep=${encodeURIComponent(separator)}&decimal=${encodeURIComponent(decimal)}`;
}

/** The request never reached the server (offline, DNS, connection reset). */
export class Unreachable extends Error {}

/** How a write names this phone: its device id, and its table phone key for a table's match. */
export function phoneHeaders(match) {
  const phone = match ? tablePhone(match) : null;
  return { 'X-Device-Id': deviceId(), ...(phone ? { 'X-Table-Phone': phone.key } : {}) };
}

export function authHeaders(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

// Reads made before the service worker controlled this page (the first visit, a table's QR code
// opened on a new phone) went past it, so it could not keep them for offline use: they are read
// again through it once it does.
const readsBeforeWorker = new Map();

/** Reads again, through the worker that now controls the page, what was read before it did. */
export function keepReadsForOffline() {
  const reads = [...readsBeforeWorker.values()];
  readsBeforeWorker.clear();
  return Promise.allSettled(reads.map((read) => read()));
}

/**
 * `write` picks the match's edit token, otherwise the best token held for reading.
 * Returns parsed JSON (or null for 204).
 */
export async function call(path, { method = 'GET', body, match, write = false, headers = {} } = {}) {
  if (method === 'GET' && navigator.serviceWorker && !navigator.serviceWorker.controller) {
    readsBeforeWorker.set(JSON.stringify([path, match, write, headers]), () => call(path, { match, write, headers }));
  }
  const token = match ? (write ? writeToken(match) : readToken(match)) : null;
  const all = { Accept: 'application/json', 'Accept-Language': languageTag(), ...authHeaders(token), ...headers };
  if (method !== 'GET') Object.assign(all, phoneHeaders(match));
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
  if (data?.type === OFFLINE_PROBLEM) throw new Unreachable('unreachable');
  if (!response.ok) throw new Problem(response.status, data);
  return data;
}

/** Saves what an authorised GET returns (a private export, a backup) as `filename`. */
export async function download(path, filename, token) {
  let response;
  try {
    response = await fetch(apiLink(path), { headers: { 'Accept-Language': languageTag(), ...authHeaders(token) } });
  } catch {
    throw new Unreachable('unreachable');
  }
  if (!response.ok) await readResponse(response);
  const url = URL.createObjectURL(await response.blob());
  h('a', { href: url, download: filename }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** The games as the API describes them, read once per language (their option help is in it). */
const gamesByLanguage = new Map();
export async function games() {
  const lang = language();
  if (!gamesByLanguage.has(lang)) {
    gamesByLanguage.set(lang, call('/games').catch((error) => { gamesByLanguage.delete(lang); throw error; }));
  }
  return gamesByLanguage.get(lang);
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
