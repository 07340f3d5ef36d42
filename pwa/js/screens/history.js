// History: every round with an edit link, undo of the last round (DELETE with If-Match after a
// second tap, so a stray tap cannot undo), and the audit trail of who changed what.
import { Problem, call } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { dateTime, has, number, t } from '../i18n.js';
import { follow, oneAtATime } from '../live.js';
import { errorScreen, header, loadView, problemText, roundSheet, roundT } from '../match-view.js';

async function auditTrail(id) {
  try {
    return await call(`/matches/${encodeURIComponent(id)}/history`, { match: id });
  } catch {
    return [];
  }
}

// Seats said by name, a suit by its colour; what no screen names (a Seven Seals bid) as it is.
const SEAT_KEYS = new Set(['winner', 'trump_zero', 'saboteur']);

function entryValue(match, key, value) {
  if (value == null) return '–';
  if (SEAT_KEYS.has(key) && Number.isInteger(value)) return match.players[value]?.name ?? String(value);
  if (key === 'final_trump' && has(`sc.suit.${value}`)) return t(`sc.suit.${value}`);
  if (typeof value === 'number') return number(value);
  if (typeof value === 'boolean') return t(value ? 'tidy.yes' : 'tidy.no');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * What a correction changed, old → new: a value per player as "Ann 5 → 3" for each player whose
 * value changed, anything else under its name. Only what changed is listed.
 */
function changes(match, before, after) {
  if (!before || !after) return [];
  const label = (key) => (has(`tidy.entry.${key}`) ? t(`tidy.entry.${key}`) : key);
  const said = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [old, now] = [before[key], after[key]];
    if (JSON.stringify(old) === JSON.stringify(now)) continue;
    const perPlayer = Array.isArray(old) && Array.isArray(now) && old.length === now.length
      && old.length === match.players.length && [...old, ...now].every((v) => v === null || typeof v !== 'object');
    if (perPlayer) {
      said.push(`${label(key)}: ${old.map((v, i) => (v === now[i] ? null
        : `${match.players[i].name} ${entryValue(match, key, v)} → ${entryValue(match, key, now[i])}`))
        .filter(Boolean).join(', ')}`);
    } else {
      said.push(`${label(key)}: ${entryValue(match, key, old)} → ${entryValue(match, key, now)}`);
    }
  }
  return said;
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
          event.target.textContent = roundT(match.game, 'history.undo_confirm', { n: last.number });
          return;
        }
        try {
          await call(`/matches/${encodeURIComponent(id)}/rounds/${last.number}`, { method: 'DELETE',
            match: id, write: true, headers: { 'If-Match': `"${match.version}"` } });
          toast(roundT(match.game, 'history.undone', { n: last.number }));
        } catch (error) {
          toast(problemText(error));
          if (!(error instanceof Problem)) return;
        }
        view = await loadView(id);
        draw();
      } }, roundT(match.game, 'history.undo', { n: last.number }));
    const trail = await auditTrail(id);
    replace(body,
      h('section', { class: 'panel' }, h('h2', {}, t('nav.history')),
        match.rounds.length ? roundSheet(view, { edit: view.canWrite }) : h('p', { class: 'hint' }, roundT(match.game, 'history.empty')),
        undo),
      // Open when a round was corrected: what it said before is worth seeing without a tap.
      trail.length > 0 && h('details', { class: 'panel', open: trail.some((e) => e.action === 'round_corrected') },
        h('summary', {}, t('history.audit')),
        h('ol', { class: 'audit' }, trail.map((event) => h('li', { 'data-action': event.action },
          h('time', { datetime: event.at }, dateTime(event.at)), ' ',
          roundT(match.game, `audit.${event.action}`, { n: event.round ?? '' }),
          event.action === 'round_corrected' && changes(match, event.old_entry, event.new_entry)
            .map((line) => h('span', { class: 'change' }, line)))))));
  }
  replace(root, header(view, 'history'), body);
  await draw();
  return follow(id, view.match.private, { version: () => view.match.version, refresh: oneAtATime(async () => {
    try { view = await loadView(id); } catch { return; }
    await draw();
  }) });
}
