// Start: a new match or tournament, this device's recent matches and tournaments, and opening a
// match or tournament from a link or code.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { go } from '../router.js';
import { forgetMatch, forgetTournament, recentMatches, recentTournaments } from '../store.js';
import { gameName } from '../match-view.js';

/** A pasted share link (…#/m/<id>?t=…) or a bare match code → the route to open. */
export function routeFor(text) {
  const value = text.trim();
  const hash = value.search(/#\/[mt]\//);
  if (hash >= 0) return value.slice(hash);
  if (/^[\w-]+$/.test(value)) return `#/m/${value}`;
  return null;
}

export function startScreen(root) {
  const list = h('ul', { class: 'recent' });
  const drawList = () => {
    const recent = recentMatches();
    replace(list, recent.length === 0 ? h('li', { class: 'hint' }, t('start.none'))
      : recent.map((m) => h('li', {},
        h('a', { class: 'recent-match', href: `#/m/${encodeURIComponent(m.id)}` },
          h('strong', {}, gameName(m.game)),
          h('span', {}, m.players.join(', ')),
          h('span', { class: 'note' }, m.status === 'finished' ? t('start.finished')
            : t('start.rounds', { n: m.rounds }))),
        h('button', { type: 'button', class: 'icon', 'aria-label': t('start.forget', { game: gameName(m.game) }),
          onclick: () => { forgetMatch(m.id); drawList(); } }, '×'))));
  };
  drawList();
  const tournaments = h('ul', { class: 'recent' });
  const drawTournaments = () => replace(tournaments, recentTournaments().filter((x) => x.name).map((x) => h('li', {},
    h('a', { class: 'recent-match', href: `#/t/${encodeURIComponent(x.id)}` }, h('strong', {}, x.name),
      h('span', { class: 'note' }, [gameName(x.game), x.token && t('start.organiser')].filter(Boolean).join(' · '))),
    h('button', { type: 'button', class: 'icon', 'aria-label': t('start.forget', { game: x.name }),
      onclick: () => { forgetTournament(x.id); drawTournaments(); } }, '×'))));
  drawTournaments();
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
      h('a', { class: 'button secondary', href: '#/t/new' }, t('start.new_tournament'))),
    h('section', { class: 'panel' }, h('h2', {}, t('start.recent')), list),
    tournaments.childElementCount > 0 && h('section', { class: 'panel' }, h('h2', {}, t('start.tournaments')),
      tournaments),
    h('section', { class: 'panel' }, open));
}
