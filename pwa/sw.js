// Service worker: the shell from a versioned cache, API reads network-first with the last answer
// as fallback, writes never cached; background sync replays the outbox.
import { OFFLINE_PROBLEM } from './js/api.js';
import { replay } from './js/outbox.js';

const VERSION = 'tafelrunde-v3';
const PRECACHE = [
  './', 'index.html', 'manifest.webmanifest', 'css/app.css',
  'i18n/de.json', 'i18n/en.json', 'i18n/fr.json', 'i18n/it.json',
  'icons/icon.svg', 'icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png',
  'js/app.js', 'js/api.js', 'js/dom.js', 'js/form.js', 'js/i18n.js', 'js/live.js', 'js/match-view.js',
  'js/outbox.js', 'js/qr.js', 'js/router.js', 'js/store.js',
  'js/games/index.js', 'js/games/card-grid.js', 'js/games/controls.js', 'js/games/sea-change.js',
  'js/games/seven-seals.js', 'js/games/tschau-sepp.js',
  'js/screens/start.js', 'js/screens/new-match.js', 'js/screens/sheet.js', 'js/screens/standings.js',
  'js/screens/winner.js', 'js/screens/history.js', 'js/screens/share.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    await cache.addAll(PRECACHE);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== VERSION) await caches.delete(name);
    await self.clients.claim();
    await replay().catch(() => {});
  })());
});

async function networkFirst(request) {
  const cache = await caches.open(VERSION);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch {
    const cached = await cache.match(request);
    if (cached) return cached;
    // The page shows its own words for this (api.js turns it into Unreachable).
    return new Response(JSON.stringify({ type: OFFLINE_PROBLEM, title: 'Offline', status: 503 }),
      { status: 503, headers: { 'Content-Type': 'application/problem+json' } });
  }
}

async function shell() {
  return (await caches.match('index.html')) || fetch('index.html');
}

async function cacheFirst(request) {
  return (await caches.match(request)) || fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(shell());
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
