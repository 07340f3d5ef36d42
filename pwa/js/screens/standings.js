// Standings after every round: rank, totals, who deals next, the running totals as a chart and the
// round-by-round sheet.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { follow, oneAtATime } from '../live.js';
import { go } from '../router.js';
import { errorScreen, header, loadView, nextDealer, roundSheet, roundT, standingsTable } from '../match-view.js';
import { scoreChart } from '../score-chart.js';

export async function standingsScreen(root, id) {
  let view;
  try { view = await loadView(id); } catch (error) { return errorScreen(root, error); }
  const base = `#/m/${encodeURIComponent(id)}`;
  const body = h('div');
  function draw() {
    const { match } = view;
    const finished = match.status === 'finished';
    replace(body,
      h('section', { class: 'panel' }, h('h2', {}, roundT(match.game, 'standings.after', { n: match.rounds.length })),
        standingsTable(match), !finished && nextDealer(match),
        finished ? h('a', { class: 'button primary', href: `${base}/winner` }, t('standings.see_winner'))
          : view.canWrite ? h('a', { class: 'button primary next-round', href: base },
            roundT(match.game, 'standings.enter_round', { n: match.rounds.length + 1 }))
            : h('p', { class: 'hint' }, roundT(match.game, 'sheet.view_only'))),
      scoreChart(view),
      match.rounds.length > 0 && h('section', { class: 'panel' }, h('h2', {}, roundT(match.game, 'sheet.rounds')), roundSheet(view)));
  }
  replace(root, header(view, 'standings'), body);
  draw();
  return follow(id, view.match.private, { version: () => view.match.version, refresh: oneAtATime(async () => {
    try { view = await loadView(id); } catch { return; }
    draw();
  }) });
}
