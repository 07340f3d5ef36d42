// The outbox: an IndexedDB FIFO of rounds not yet accepted by the API. Shared by the page and
// the service worker (background sync), so it touches neither window nor document.
// Each item keeps the Idempotency-Key made when the user tapped save; a replay resends it, so the
// server stores a round once however often it is sent. A network error keeps the item and stops
// (order matters: round 5 must not overtake round 4); a 4xx answer moves it to `rejected` with the
// problem so the page can show it; a 2xx removes it. Every change is announced (onChange) to this
// page and, through a BroadcastChannel, to the others, so every open screen of the match refreshes.
// Each item also keeps the match version it was typed on (`version`, sent as If-Match) and the
// round it was typed as (`round`): a match another phone changed meanwhile answers 412, and the
// item moves to `rejected` with every later item of its match (they were typed after it), so
// the page asks whether to keep the numbers as the next round instead of appending them. A
// resend of a round already stored is answered from its Idempotency-Key before the version is
// looked at, so a lost answer is never turned into a question.
import { languageTag } from './i18n.js';
import { deviceId, randomId, tablePhone } from './store.js';

const DB = 'tafelrunde';
const OUTBOX = 'outbox';
const REJECTED = 'rejected';
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('tafelrunde-outbox') : null;

let dbPromise = null;
function database() {
  dbPromise ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(OUTBOX, { keyPath: 'seq', autoIncrement: true });
      request.result.createObjectStore(REJECTED, { keyPath: 'seq' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return dbPromise;
}

async function run(store, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const request = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(request && request.result);
    tx.onerror = () => reject(tx.error);
  });
}

const all = (store) => run(store, 'readonly', (s) => s.getAll());

export async function enqueue({ matchId, body, token, version = null, round = null }) {
  // The device id, the table phone key and the language are read here, in the page: the service
  // worker knows none of them, and a round it replays must still be answered in the words of
  // whoever entered it.
  const item = { matchId, body, token, version, round, device: deviceId(),
    phone: tablePhone(matchId)?.key, lang: languageTag(), key: randomId(), at: new Date().toISOString() };
  item.seq = await run(OUTBOX, 'readwrite', (s) => s.add(item));
  announce(matchId);
  return item;
}

export const pending = async (matchId) => (await all(OUTBOX)).filter((i) => i.matchId === matchId);
export const rejected = async (matchId) => (await all(REJECTED)).filter((i) => i.matchId === matchId);
export const dismiss = async (seq) => run(REJECTED, 'readwrite', (s) => s.delete(seq));

// A BroadcastChannel never delivers a message to the page that posts it: a round this page sent
// when the connection came back must still refresh this page's screen.
const listeners = new Set();

function announce(matchId) {
  for (const listener of listeners) listener(matchId);
  if (channel) channel.postMessage({ matchId });
}

/** `listener(matchId)` after every change of the outbox, made here or in another page or worker. */
export function onChange(listener) {
  const handler = (event) => listener(event.data.matchId);
  listeners.add(listener);
  channel?.addEventListener('message', handler);
  return () => {
    listeners.delete(listener);
    channel?.removeEventListener('message', handler);
  };
}

async function send(item) {
  return fetch(`/api/v1/matches/${encodeURIComponent(item.matchId)}/rounds`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json', Accept: 'application/json',
      'Idempotency-Key': item.key, ...(item.token ? { Authorization: `Bearer ${item.token}` } : {}),
      ...(item.version != null ? { 'If-Match': `"${item.version}"` } : {}),
      ...(item.device ? { 'X-Device-Id': item.device } : {}),
      ...(item.phone ? { 'X-Table-Phone': item.phone } : {}),
      ...(item.lang ? { 'Accept-Language': item.lang } : {}),
    },
    body: JSON.stringify(item.body),
  });
}

async function replayUnlocked() {
  const outcomes = [];
  for (;;) {
    const [item] = await all(OUTBOX);
    if (!item) break;
    let response;
    try {
      response = await send(item);
    } catch {
      outcomes.push({ item, state: 'pending' });
      break;
    }
    if (response.status >= 500) {
      outcomes.push({ item, state: 'pending' });
      break;
    }
    const data = await response.json().catch(() => null);
    const problem = response.ok ? null : { status: response.status,
      detail: data?.detail || data?.title || '', errors: data?.errors || [] };
    // A stale version: this round and the match's later ones, typed after it, wait for an answer.
    const moved = response.status === 412
      ? (await all(OUTBOX)).filter((i) => i.matchId === item.matchId) : [item];
    for (const each of moved) {
      await run(OUTBOX, 'readwrite', (s) => s.delete(each.seq));
      if (problem) await run(REJECTED, 'readwrite', (s) => s.put({ ...each, problem }));
    }
    if (response.ok) {
      outcomes.push({ item, state: 'sent', data });
    } else {
      for (const each of moved) outcomes.push({ item: each, state: 'rejected', problem });
    }
    announce(item.matchId);
  }
  return outcomes;
}

/** Sends what is waiting, oldest first; one replay at a time across page and service worker. */
export function replay() {
  if (self.navigator?.locks) return navigator.locks.request('tafelrunde-outbox', replayUnlocked);
  return replayUnlocked();
}
