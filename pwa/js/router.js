// Hash routes: #/, #/new, #/open, #/m/<id>, #/m/<id>/standings|winner|history|share,
// #/m/<id>/rounds/<n>. Share links carry ?t=<edit token> or ?v=<view token>: stored, then
// stripped from the address so they do not linger in the history or a screenshot. A table link
// of a tournament adds &tt=<tournament>.<round>.<table>.
// Tournaments: #/t/new, #/t/<id>, #/t/<id>/board, #/t/<id>/r/<n>/cards, #/t/<id>/p/<player>;
// a private tournament's link carries ?v=<view token>, kept the same way.
// Clubs: #/c/new, #/c/<id> (members), #/c/<id>/ladder[/<game>], #/c/<id>/history, #/c/<id>/share,
// #/c/<id>/season[/<season>], #/c/<id>/season/<season>/p/<member>, #/c/<id>/season/<season>/board,
// #/c/<id>/p/<member>[/vs/<member>], #/c/<id>/new (a match), #/c/<id>/t/new (a tournament); a
// member's link carries ?t=<club token>&v=<view token>, a viewer's ?v=<view token>.
import { rememberClub, rememberTournament, storeTokens } from './store.js';

const routes = [];
let cleanup = null;
let renderCount = 0;
let reloadPending = false;

export function route(pattern, screen) {
  routes.push([pattern, screen]);
}

export function go(hash, replaceEntry = false) {
  if (replaceEntry) {
    history.replaceState(null, '', hash);
    render();
  } else {
    location.hash = hash;
  }
}

/**
 * go() for the screen being opened now. Screens navigate from callbacks that may finish late (a
 * live update, a save); once the user has opened another screen, such a late call is dropped so
 * it cannot take them back to where they came from.
 */
export function goFromHere() {
  const mine = renderCount;
  return (hash, replaceEntry = false) => {
    if (mine === renderCount) go(hash, replaceEntry);
  };
}

/**
 * A new version of the app has taken over this page: the next screen opened loads it whole, so
 * old and new modules never mix and nothing half typed on this screen is lost.
 */
export function reloadOnNextScreen() {
  reloadPending = true;
}

function parse() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?');
  return { path, query: new URLSearchParams(query) };
}

export async function render() {
  if (reloadPending) {
    location.reload();
    return;
  }
  const { path, query } = parse();
  const id = /^\/m\/([^/]+)/.exec(path)?.[1];
  if (id && (query.has('t') || query.has('v'))) {
    const [tid, round, table] = (query.get('tt') || '').split('.');
    storeTokens(decodeURIComponent(id), { token: query.get('t'), view: query.get('v'),
      tournament: table ? { id: tid, round: Number(round), table: Number(table) } : null });
    history.replaceState(null, '', `#${path}`);
    // Offline, the phone asks again before it confirms; its rounds name it by device id meanwhile.
    if (table && query.has('t')) {
      import('./tournaments/phone.js').then((phone) => phone.openTablePhone(decodeURIComponent(id)))
        .catch(() => {});
    }
  }
  const tournament = /^\/t\/([^/]+)/.exec(path)?.[1];
  if (tournament && query.has('v')) {
    rememberTournament({ id: decodeURIComponent(tournament) }, { view: query.get('v') });
    history.replaceState(null, '', `#${path}`);
  }
  const club = /^\/c\/([^/]+)/.exec(path)?.[1];
  if (club && (query.has('t') || query.has('v'))) {
    rememberClub({ id: decodeURIComponent(club) }, { token: query.get('t'), view: query.get('v') });
    history.replaceState(null, '', `#${path}`);
  }
  if (cleanup) cleanup();
  cleanup = null;
  const main = document.getElementById('app');
  // Each screen draws into a container of its own. A screen left while one of its live updates
  // was on its way still draws it, but into its container, which is no longer on the page: it
  // can never cover the screen opened since. The new container takes the old screen along
  // until the new screen draws, so nothing flashes empty meanwhile.
  const root = document.createElement('div');
  root.className = 'screen';
  root.append(...(main.querySelector(':scope > .screen') ?? main).childNodes);
  main.replaceChildren(root);
  const mine = ++renderCount;
  for (const [pattern, screen] of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    const params = match.slice(1).map((param) => (param === undefined ? param : decodeURIComponent(param)));
    const result = await screen(root, ...params);
    // A newer navigation may have happened while this screen loaded: drop the stale cleanup.
    if (mine === renderCount) cleanup = typeof result === 'function' ? result : null;
    else if (typeof result === 'function') result();
    // The new screen's container starts the focus (where a screen reader reads on from), unless
    // the screen focused a field of its own to type into (a score pad's round, the check-in's
    // name): the old screen's nodes lost theirs when they moved, so a focus inside is the new one's.
    if (!root.contains(document.activeElement)) main.focus({ preventScroll: true });
    window.scrollTo(0, 0);
    return;
  }
  go('#/', true);
}

export function start() {
  addEventListener('hashchange', render);
  return render();
}
