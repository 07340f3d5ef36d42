// Service worker: the app from a cache named after its version, API reads network-first with the
// last answer as fallback, writes never cached; background sync replays the outbox.
// precache.js is written by the server from the app's files (api/server/app_files.py): the files
// installed (FILES: what a phone at a table needs offline), those kept once first opened (LATER:
// the organiser's screens) and a version made from the contents of both. The server also ends
// this file with a line naming that version, so any changed file changes the worker and the
// browser installs the new one: no number to bump.
import { FILES, LATER, VERSION } from './precache.js';
import { OFFLINE_PROBLEM } from './js/api.js';
import { languageFor } from './js/i18n.js';
import { replay } from './js/outbox.js';

// API answers are data, not code: kept across versions so a match read once opens offline even
// after an update.
const ANSWERS = 'tafelrunde-answers';
const SHELL = 'index.html';
const APP_PAGES = new Set(['/', '/index.html']);
// Every match screen needs the games' descriptions, and the page keeps them once read: read
// before this worker took over, they would never reach its cache.
const GAMES = '/api/v1/games';
// Each language's words are a fifth of the app: the worker keeps the reader's ones (the phone's
// language, and any the app read under an earlier version) and the others once the app reads
// them, so a phone that switches languages online has both offline.
const WORDS = /^i18n\/(\w+)\.json$/;
const APP_FILES = new Set([...FILES, ...LATER]);

/** The app's files an earlier version's cache holds: what this phone has installed or opened. */
async function filesKept() {
  const kept = new Set();
  for (const name of await caches.keys()) {
    if (name === ANSWERS) continue;
    for (const request of await (await caches.open(name)).keys()) {
      kept.add(new URL(request.url).pathname.slice(1));
    }
  }
  return kept;
}

/** The languages whose words this worker installs: the phone's and those kept before. */
function languagesKept(kept) {
  const languages = new Set([languageFor(self.navigator.languages?.length
    ? [...self.navigator.languages] : [self.navigator.language])]);
  for (const file of kept) {
    const words = file.match(WORDS);
    if (words) languages.add(words[1]);
  }
  return languages;
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    const kept = await filesKept();
    const languages = languagesKept(kept);
    // An organiser's screen opened under an earlier version is fetched again now, new: after an
    // update it still opens offline, as it did before.
    const files = [
      ...FILES.filter((file) => !WORDS.test(file) || languages.has(file.match(WORDS)[1])),
      ...LATER.filter((file) => kept.has(file)),
    ];
    // Past the HTTP cache (a 304 keeps it cheap): a copy cached before the change must not be
    // stored under the new version.
    await cache.addAll(files.map((file) => new Request(file, { cache: 'no-cache' })));
    // Best effort: the app itself is installed either way, and the page reads them again online.
    await (await caches.open(ANSWERS)).add(GAMES).catch(() => {});
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== VERSION && name !== ANSWERS) await caches.delete(name);
    }
    await self.clients.claim();
  })());
  // Not awaited by the activation: pages wait for an activating worker, and a slow network must
  // not keep the app from opening. The page also sends what waits, on start and when online.
  replay().catch(() => {});
});

async function networkFirst(request) {
  const cache = await caches.open(ANSWERS);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch {
    // An answer in another language (Vary: Accept-Language) is better than none offline.
    const cached = (await cache.match(request)) || (await cache.match(request, { ignoreVary: true }));
    if (cached) return cached;
    // The page shows its own words for this (api.js turns it into Unreachable).
    return new Response(JSON.stringify({ type: OFFLINE_PROBLEM, title: 'Offline', status: 503 }),
      { status: 503, headers: { 'Content-Type': 'application/problem+json' } });
  }
}

/**
 * A file of this worker's own version: the one its pages were loaded with. One of the app's files
 * that it did not install (another language's words, an organiser's screen) is kept once read.
 */
async function cacheFirst(request) {
  const cache = await caches.open(VERSION);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  const file = new URL(request.url).pathname.slice(1);
  if (response.ok && APP_FILES.has(file)) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // The app lives at / (hash routes); any other page (a printable export, the API reference)
    // is the server's to answer.
    if (APP_PAGES.has(url.pathname)) event.respondWith(cacheFirst(SHELL));
  } else if (url.pathname.startsWith('/api/')) {
    // The event stream never ends and exports are downloads: leave both to the network.
    if (url.pathname.endsWith('/events') || url.pathname.endsWith('/export')) return;
    event.respondWith(networkFirst(request));
  } else {
    event.respondWith(cacheFirst(request));
  }
});

self.addEventListener('sync', (event) => {
  if (event.tag === 'outbox') event.waitUntil(replay());
});
