// History: every round with an edit link, undo of the last round (DELETE with If-Match after a
// second tap, so a stray tap cannot undo), and the audit trail of who changed what.
import { Problem, call } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { dateTime, t } from '../i18n.js';
import { follow, oneAtATime } from '../live.js';
import { errorScreen, header, loadView, problemText, roundSheet } from '../match-view.js';

async function auditTrail(id) {
  try {
    return await call(`/matches/${encodeURIComponent(id)}/history`, { match: id });
  } catch {
    return [];
  }
}

export async function historyScreen(root, id) {
  let view;
  try { view = await loadView(id); } catch (error) { return errorScreen(root, error); }
  const body = h('div');
  async function draw() {
    const { match } = view;
    const last = match.rounds.at(-1);
    let armed = false;
    const undo = last && view.canWrite && h('button', { type: 'button', class: 'secondary undo',
      onclick: async (event) => {
        if (!armed) {
          armed = true;
          event.target.textContent = t('history.undo_confirm', { n: last.number });
          return;
        }
        try {
          await call(`/matches/${encodeURIComponent(id)}/rounds/${last.number}`, { method: 'DELETE',
            match: id, write: true, headers: { 'If-Match': `"${match.version}"` } });
          toast(t('history.undone', { n: last.number }));
        } catch (error) {
          toast(problemText(error));
          if (!(error instanceof Problem)) return;
        }
        view = await loadView(id);
        draw();
      } }, t('history.undo', { n: last.number }));
    const trail = await auditTrail(id);
    replace(body,
      h('section', { class: 'panel' }, h('h2', {}, t('nav.history')),
        match.rounds.length ? roundSheet(view, { edit: view.canWrite }) : h('p', { class: 'hint' }, t('history.empty')),
        undo),
      trail.length > 0 && h('details', { class: 'panel' }, h('summary', {}, t('history.audit')),
        h('ol', { class: 'audit' }, trail.map((event) => h('li', {},
          h('time', { datetime: event.at }, dateTime(event.at)), ' ',
          t(`audit.${event.action}`, { n: event.round ?? '' }))))));
  }
  replace(root, header(view, 'history'), body);
  await draw();
  return follow(id, view.match.private, { version: () => view.match.version, refresh: oneAtATime(async () => {
    try { view = await loadView(id); } catch { return; }
    await draw();
  }) });
}
