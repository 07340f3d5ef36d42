// Boot: language, routes, outbox replay (on start and when the connection returns), service worker.
import {
  LANGUAGES, LANGUAGE_NAMES, keepWordsForOffline, language, preferredLanguage, t, useLanguage,
} from './i18n.js';
import { h, replace, toast } from './dom.js';
import { reloadOnNextScreen, render, route, start } from './router.js';
import { replay } from './outbox.js';
import { startScreen } from './screens/start.js';
import { getMatch, keepReadsForOffline } from './api.js';
import { errorScreen } from './match-view.js';
import { tokensFor } from './store.js';

/**
 * Every screen but the start screen is loaded when first opened: the first screen shows after
 * the files it needs (README, "Offline"), and the service worker fetches the others after it.
 */
const later = (module, name) => async (root, ...params) => {
  let screen;
  try { screen = (await import(module))[name]; } catch (error) { return errorScreen(root, error); }
  return screen(root, ...params);
};

/** A finished tournament match also shows the table's confirmation under the winner. */
async function winnerAndConfirm(root, id) {
  await later('./screens/winner.js', 'winnerScreen')(root, id);
  const drawn = root.firstElementChild;
  const match = await getMatch(id).catch(() => null);
  const place = match?.tournament || tokensFor(id).tournament;
  if (!match || !place || match.status !== 'finished') return undefined;
  const confirm = await import('./tournaments/confirm.js').catch(() => null);
  // Another render may have replaced this screen meanwhile (e.g. a live update and the save both
  // open the winner): only the screen still shown gets the panel.
  if (!confirm || root.firstElementChild !== drawn) return undefined;
  return confirm.confirmPanel(root, match, place);
}

route(/^\/$/, startScreen);
route(/^\/new$/, later('./screens/new-match.js', 'newMatchScreen'));
route(/^\/m\/([^/]+)$/, later('./screens/sheet.js', 'sheetScreen'));
route(/^\/m\/([^/]+)\/standings$/, later('./screens/standings.js', 'standingsScreen'));
route(/^\/m\/([^/]+)\/winner$/, winnerAndConfirm);
route(/^\/m\/([^/]+)\/history$/, later('./screens/history.js', 'historyScreen'));
route(/^\/m\/([^/]+)\/rounds\/(\d+)$/, later('./screens/sheet.js', 'editRoundScreen'));
route(/^\/m\/([^/]+)\/share$/, later('./screens/share.js', 'shareScreen'));
route(/^\/t\/new$/, later('./tournaments/new.js', 'newTournamentScreen'));
route(/^\/t\/([^/]+)$/, later('./tournaments/dashboard.js', 'dashboardScreen'));
route(/^\/t\/([^/]+)\/board$/, later('./tournaments/board.js', 'boardScreen'));
route(/^\/t\/([^/]+)\/r\/(\d+)\/cards$/, later('./tournaments/cards.js', 'cardsScreen'));
route(/^\/t\/([^/]+)\/p\/(\d+)$/, later('./tournaments/player.js', 'playerScreen'));
route(/^\/t\/([^/]+)\/check-in$/, later('./tournaments/checkin.js', 'checkInScreen'));
route(/^\/c\/new$/, later('./clubs/new.js', 'newClubScreen'));
route(/^\/c\/([^/]+)$/, later('./clubs/members.js', 'membersScreen'));
route(/^\/c\/([^/]+)\/ladder(?:\/([^/]+))?$/, later('./clubs/ladder.js', 'ladderScreen'));
route(/^\/c\/([^/]+)\/history$/, later('./clubs/history.js', 'historyScreen'));
route(/^\/c\/([^/]+)\/share$/, later('./clubs/share.js', 'clubShareScreen'));
route(/^\/c\/([^/]+)\/settlement$/, later('./clubs/settlement.js', 'settlementScreen'));
route(/^\/c\/([^/]+)\/kasse$/, later('./clubs/kasse.js', 'kasseScreen'));
route(/^\/c\/([^/]+)\/season(?:\/(\d+))?$/, later('./clubs/seasons.js', 'seasonsScreen'));
route(/^\/c\/([^/]+)\/season\/(\d+)\/p\/(\d+)$/, later('./clubs/seasons.js', 'seasonLineScreen'));
route(/^\/c\/([^/]+)\/season\/(\d+)\/board$/, later('./clubs/seasons.js', 'seasonBoardScreen'));
route(/^\/c\/([^/]+)\/p\/(\d+)(?:\/vs\/(\d+))?$/, later('./clubs/member.js', 'memberScreen'));
route(/^\/c\/([^/]+)\/new$/, later('./screens/new-match.js', 'newMatchScreen'));
route(/^\/c\/([^/]+)\/t\/new$/, later('./tournaments/new.js', 'newTournamentScreen'));

/** The language picker: each language named in itself, the current one chosen. */
function labelChrome() {
  const picker = document.getElementById('lang');
  replace(picker, LANGUAGES.map((lang) => h('option', { value: lang, lang, selected: lang === language() },
    LANGUAGE_NAMES[lang])));
  picker.setAttribute('aria-label', t('app.language'));
  document.querySelector('.brand').setAttribute('aria-label', t('app.home'));
  showNetwork();
}

function showNetwork() {
  const badge = document.getElementById('net');
  badge.textContent = navigator.onLine ? '' : t('app.offline');
  badge.classList.toggle('off', !navigator.onLine);
}

/**
 * Registered once the first screen shows, so the worker's download of the whole app does not
 * compete with it. A worker taking over a page that another one controlled is a new version.
 */
function installServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlled) reloadOnNextScreen();
    else {
      keepReadsForOffline();
      keepWordsForOffline();
    }
    controlled = true;
  });
  navigator.serviceWorker.register('sw.js', { type: 'module', updateViaCache: 'none' })
    .catch(() => {});
}

/**
 * The screens' stylesheet, which index.html preloads: applied here, not linked by the page, so
 * that it holds up no paint (the page styles what shows before this script itself). Resolves once
 * it applies, or failed to: a screen is drawn either way.
 */
function applyStylesheet() {
  return new Promise((resolve) => {
    document.head.append(h('link', { rel: 'stylesheet', href: 'css/app.css', onload: resolve, onerror: resolve }));
  });
}

/** Sends what waits in the outbox; says so when rounds saved offline went out. */
async function replayOutbox() {
  const outcomes = await replay().catch(() => []);
  const sent = outcomes.filter((outcome) => outcome.state === 'sent').length;
  if (sent) toast(t('sheet.sent', { n: sent }));
}

async function boot() {
  const styled = applyStylesheet();
  await useLanguage(preferredLanguage());
  labelChrome();
  document.getElementById('lang').addEventListener('change', async (event) => {
    await useLanguage(event.target.value, true);
    labelChrome();
    await render();
    document.body.dataset.ready = language();
  });
  addEventListener('online', () => { showNetwork(); replayOutbox(); });
  addEventListener('offline', showNetwork);
  replayOutbox();
  await styled;
  await start();
  document.body.dataset.ready = language();
  installServiceWorker();
}

boot();
