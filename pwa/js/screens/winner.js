// The winner screen: who won and why (the API's reason, in the app's language as the API says
// it), final standings, and what to do next.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { goFromHere } from '../router.js';
import { errorScreen, header, loadView, roundSheet, standingsTable } from '../match-view.js';
import { prepareRematch } from './new-match.js';
import { exportLink } from './share.js';

export function winnerNames(match) {
  return match.standings.filter((row) => match.winners.includes(row.team ?? row.seat)).map((row) => row.name);
}

export async function winnerScreen(root, id) {
  const go = goFromHere();
  let view;
  try { view = await loadView(id); } catch (error) { return errorScreen(root, error); }
  const { match } = view;
  if (match.status !== 'finished') return go(`#/m/${encodeURIComponent(id)}/standings`, true);
  const names = winnerNames(match);
  replace(root, header(view, 'standings'),
    h('section', { class: 'panel winner' },
      h('p', { class: 'trophy', 'aria-hidden': 'true' }, '★'),
      h('h2', { id: 'winner-names' }, t(names.length > 1 ? 'winner.shared' : 'winner.single',
        { names })),
      match.reason && h('p', { class: 'reason', id: 'winner-reason' }, match.reason.message),
      standingsTable(match)),
    h('section', { class: 'panel' }, h('h2', {}, t('sheet.rounds')), roundSheet(view)),
    h('section', { class: 'panel actions' },
      h('button', { type: 'button', class: 'primary', onclick: () => { prepareRematch(match); go('#/new'); } },
        t('winner.rematch')),
      exportLink(match),
      h('a', { class: 'button secondary', href: '#/' }, t('nav.home'))));
  return undefined;
}
