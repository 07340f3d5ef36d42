// Boot: language, routes, outbox replay (on start and when the connection returns), service worker.
import { language, otherLanguage, preferredLanguage, t, useLanguage } from './i18n.js';
import { render, route, start } from './router.js';
import { replay } from './outbox.js';
import { startScreen } from './screens/start.js';
import { newMatchScreen } from './screens/new-match.js';
import { sheetScreen, editRoundScreen } from './screens/sheet.js';
import { standingsScreen } from './screens/standings.js';
import { winnerScreen } from './screens/winner.js';
import { historyScreen } from './screens/history.js';
import { shareScreen } from './screens/share.js';

route(/^\/$/, startScreen);
route(/^\/new$/, newMatchScreen);
route(/^\/m\/([^/]+)$/, sheetScreen);
route(/^\/m\/([^/]+)\/standings$/, standingsScreen);
route(/^\/m\/([^/]+)\/winner$/, winnerScreen);
route(/^\/m\/([^/]+)\/history$/, historyScreen);
route(/^\/m\/([^/]+)\/rounds\/(\d+)$/, editRoundScreen);
route(/^\/m\/([^/]+)\/share$/, shareScreen);

function labelChrome() {
  const toggle = document.getElementById('lang');
  toggle.textContent = otherLanguage().toUpperCase();
  toggle.setAttribute('aria-label', t('app.switch_language'));
  document.querySelector('.brand').setAttribute('aria-label', t('app.home'));
  showNetwork();
}

function showNetwork() {
  const badge = document.getElementById('net');
  badge.textContent = navigator.onLine ? '' : t('app.offline');
  badge.classList.toggle('off', !navigator.onLine);
}

function replayOutbox() {
  return replay().catch(() => []);
}

async function boot() {
  await useLanguage(preferredLanguage());
  labelChrome();
  document.getElementById('lang').addEventListener('click', async () => {
    await useLanguage(otherLanguage(), true);
    labelChrome();
    render();
  });
  addEventListener('online', () => { showNetwork(); replayOutbox(); });
  addEventListener('offline', showNetwork);
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('sw.js', { type: 'module', updateViaCache: 'none' })
      .catch(() => {});
  }
  replayOutbox();
  await start();
  document.body.dataset.ready = language();
}

boot();
