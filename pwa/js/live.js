// Live updates from the API's event streams (a match's, a tournament's), for screens that must
// never show a stale state: a phone at the table, a projector board left alone for an evening.
// Read with a streaming fetch, one code path for every stream: it sends the token of a private
// match and the app's language like any request, and reconnects the way a table needs: at once
// when the phone is back online or the screen is shown again, otherwise after 1, 2, 4 … 15 s; a
// stream silent for longer than two of the server's pings is taken for dead and opened again.
// Changes are hints (the API's events documentation says why): they can come late, twice or out
// of order, so a screen reads again only when an event names a newer version than the one it
// shows, and every stream opens with the version the server has (`current`), so whatever
// happened while it was away is read at once. Reads run one at a time (oneAtATime): a slow
// answer can never overwrite a newer one.
import { authHeaders } from './api.js';
import { languageTag } from './i18n.js';
import { readToken } from './store.js';

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 15000;
const SILENCE_MS = 40000; // the server pings every 15 s
const CHASE_FIRST_MS = 300;
const CHASE_TRIES = 5; // 0.3 + 0.6 + 1.2 + 2.4 + 4.8 s

/**
 * `work` run once at a time: a call while it runs makes it run once more afterwards (however
 * many calls came), so the last run starts after the last call. Returns the running promise.
 */
export function oneAtATime(work) {
  let running = null;
  let again = false;
  return function run() {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await work();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}

/**
 * Follows a match: `refresh()` whenever the server has a newer version than `version()`, the
 * version the screen shows. Returns the function that stops following.
 */
export function follow(id, isPrivate, { version, refresh }) {
  return followEvents(`/api/v1/matches/${encodeURIComponent(id)}/events`,
    isPrivate ? readToken(id) : null, { version, refresh });
}

/**
 * Any event stream of the API; `token` for a private resource; `connected(open)`, if given, hears
 * each time the stream answers (true) or goes away (false). Returns the stop function.
 */
export function followEvents(url, token, { version, refresh, connected = () => {} }) {
  let stopped = false;
  let connection = null;
  let wake = null;
  let delay = FIRST_RETRY_MS;

  // A read can answer older than the stream announced: the service worker answers from its
  // cache when its own fetch fails, and its network can come back a moment after the page's. The
  // screen would then stay behind until the next change, so a read that leaves it behind is made
  // again, a few times with growing pauses.
  let announced = null;
  let chase = null;
  let tries = 0;
  const behind = () => {
    const shown = version();
    return announced != null && (shown == null || shown < announced);
  };
  const check = () => {
    clearTimeout(chase);
    chase = setTimeout(async () => {
      if (stopped || !behind() || ++tries > CHASE_TRIES) return;
      await refresh();
      check();
    }, CHASE_FIRST_MS * 2 ** tries);
  };
  const onEvent = (type, data) => {
    if (type !== 'current' && type !== 'change') return;
    const shown = version();
    const newer = shown == null || (type === 'current' ? data.version !== shown : data.version > shown);
    announced = type === 'current' ? data.version : Math.max(announced ?? data.version, data.version);
    tries = 0;
    if (newer) {
      refresh();
      check();
    }
  };

  const now = () => {
    delay = FIRST_RETRY_MS;
    if (wake) wake();
  };
  const reconnect = () => {
    connection?.abort();
    now();
  };
  const onVisible = () => { if (document.visibilityState === 'visible') reconnect(); };
  const onOffline = () => connection?.abort();

  (async () => {
    while (!stopped) {
      connection = new AbortController();
      await readStream(url, token, connection.signal, onEvent, () => {
        delay = FIRST_RETRY_MS;
        connected(true);
      });
      if (stopped) break;
      connected(false);
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, delay);
      });
      wake = null;
      delay = Math.min(delay * 2, LAST_RETRY_MS);
    }
  })();

  addEventListener('online', now);
  addEventListener('offline', onOffline);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    stopped = true;
    clearTimeout(chase);
    removeEventListener('online', now);
    removeEventListener('offline', onOffline);
    document.removeEventListener('visibilitychange', onVisible);
    connection?.abort();
    if (wake) wake();
  };
}

/** Reads one connection of a stream until it ends, fails or falls silent; `onOpen` once it answers. */
async function readStream(url, token, signal, onEvent, onOpen) {
  const abort = new AbortController();
  const stop = () => abort.abort();
  signal.addEventListener('abort', stop);
  let silence = setTimeout(stop, SILENCE_MS);
  try {
    const response = await fetch(url, { headers: { Accept: 'text/event-stream',
      'Accept-Language': languageTag(), ...authHeaders(token) }, signal: abort.signal, cache: 'no-store' });
    if (!response.ok || !response.body) return;
    onOpen();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      clearTimeout(silence);
      silence = setTimeout(stop, SILENCE_MS);
      buffer += value;
      const blocks = buffer.split(/\r?\n\r?\n/);
      buffer = blocks.pop();
      for (const block of blocks) dispatch(block, onEvent);
    }
  } catch {
    // Offline, refused, dropped or silent: the caller waits and connects again.
  } finally {
    clearTimeout(silence);
    signal.removeEventListener('abort', stop);
  }
}

function dispatch(block, onEvent) {
  let type = 'message';
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (!data.length) return;
  let parsed;
  try { parsed = JSON.parse(data.join('\n')); } catch { return; }
  onEvent(type, parsed);
}
