// Start: a new match, tournament or club, this device's recent matches, tournaments and clubs, and
// opening a match, tournament or club from a link or code.
// Decision: × on a listed match or tournament asks first (forget / keep, in its row), and what is
// forgotten waits under "Recently forgotten", with its tokens, until it is brought back: a match
// whose edit link was only on this phone is never lost to a stray tap.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { go } from '../router.js';
import {
  bringBack, forgetClub, forgetMatch, forgetTournament, forgotten, recentClubs, recentMatches, recentTournaments,
} from '../store.js';
import { gameName, roundT } from '../match-view.js';

/** A pasted share link (…#/m/<id>?t=…) or a bare match code → the route to open. */
export function routeFor(text) {
  const value = text.trim();
  const hash = value.search(/#\/[mtc]\//);
  if (hash >= 0) return value.slice(hash);
  if (/^[\w-]+$/.test(value)) return `#/m/${value}`;
  return null;
}

const shownGame = (m) => m.title || gameName(m.game);

const matchLink = (m) => h('a', { class: 'recent-match', href: `#/m/${encodeURIComponent(m.id)}` },
  h('strong', {}, shownGame(m)),
  h('span', {}, m.players.join(', ')),
  h('span', { class: 'note' }, m.status === 'finished' ? t('start.finished') : roundT(m.game, 'start.rounds', { n: m.rounds })));

const tournamentLink = (x) => h('a', { class: 'recent-match', href: `#/t/${encodeURIComponent(x.id)}` },
  h('strong', {}, x.name),
  h('span', { class: 'note' }, [shownGame(x), x.token && t('start.organiser')].filter(Boolean).join(' · ')));

const clubLink = (x) => h('a', { class: 'recent-match', href: `#/c/${encodeURIComponent(x.id)}` },
  h('strong', {}, x.name),
  h('span', { class: 'note' }, x.token ? t('start.club_member') : t('start.club_viewer')));

const linkOf = { match: matchLink, tournament: tournamentLink, club: clubLink };
const nameOf = (item) => (item.kind === 'match' ? shownGame(item.entry) : item.entry.name);

/** A listed item with × that asks before `forget()` runs; `redraw` draws the lists again. */
function forgettable(link, name, forget, redraw) {
  const row = h('li', {});
  const asking = () => replace(row, h('div', { class: 'forget-ask', role: 'group', 'aria-label': name },
    h('p', {}, t('start.forget_ask', { name })),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', onclick: () => { forget(); redraw(); } },
        t('start.forget_yes')),
      h('button', { type: 'button', onclick: listed }, t('start.forget_no')))));
  function listed() {
    replace(row, link, h('button', { type: 'button', class: 'icon', 'aria-label': t('start.forget', { game: name }),
      onclick: () => { asking(); row.querySelector('button').focus(); } }, '×'));
  }
  listed();
  return row;
}

export function startScreen(root) {
  const list = h('ul', { class: 'recent' });
  const tournaments = h('ul', { class: 'recent' });
  const tournamentPanel = h('section', { class: 'panel' }, h('h2', {}, t('start.tournaments')), tournaments);
  const clubs = h('ul', { class: 'recent' });
  const clubPanel = h('section', { class: 'panel clubs' }, h('h2', {}, t('start.clubs')), clubs);
  const aside = h('ul', { class: 'recent' });
  const asidePanel = h('details', { class: 'panel forgotten' });

  function draw() {
    const recent = recentMatches();
    replace(list, recent.length === 0 ? h('li', { class: 'hint' }, t('start.none'))
      : recent.map((m) => forgettable(matchLink(m), shownGame(m), () => forgetMatch(m.id), draw)));
    const held = recentTournaments().filter((x) => x.name);
    replace(tournaments, held.map((x) => forgettable(tournamentLink(x), x.name, () => forgetTournament(x.id), draw)));
    tournamentPanel.hidden = held.length === 0;
    const known = recentClubs().filter((x) => x.name);
    replace(clubs, known.map((x) => forgettable(clubLink(x), x.name, () => forgetClub(x.id), draw)));
    clubPanel.hidden = known.length === 0;
    const gone = forgotten().filter((item) => item.kind === 'match' || item.entry.name);
    replace(aside, gone.map((item) => h('li', {},
      linkOf[item.kind](item.entry),
      h('button', { type: 'button', class: 'secondary',
        'aria-label': t('start.bring_back_name', { name: nameOf(item) }),
        onclick: () => { bringBack(item.kind, item.entry.id); draw(); } }, t('start.bring_back')))));
    replace(asidePanel, h('summary', {}, t('start.forgotten', { n: gone.length })), aside);
    asidePanel.hidden = gone.length === 0;
  }
  draw();

  const input = h('input', { id: 'open-code', type: 'text', autocomplete: 'off', autocapitalize: 'off',
    placeholder: t('start.open_placeholder') });
  const problem = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const open = h('form', { class: 'open', onsubmit: (event) => {
    event.preventDefault();
    const target = routeFor(input.value);
    problem.hidden = !!target;
    problem.textContent = target ? '' : t('start.bad_code');
    if (target) go(target);
  } }, h('label', { for: 'open-code' }, t('start.open')),
  h('div', { class: 'row' }, input, h('button', { type: 'submit' }, t('start.open_button'))), problem);
  replace(root,
    h('section', { class: 'panel hero' }, h('h1', {}, t('start.title')), h('p', {}, t('start.lead')),
      h('a', { class: 'button primary', href: '#/new' }, t('start.new')),
      h('a', { class: 'button secondary', href: '#/t/new' }, t('start.new_tournament')),
      h('a', { class: 'button secondary', href: '#/c/new' }, t('start.new_club'))),
    clubPanel,
    h('section', { class: 'panel' }, h('h2', {}, t('start.recent')), list),
    tournamentPanel, h('section', { class: 'panel' }, open), asidePanel);
}
