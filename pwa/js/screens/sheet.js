// The score sheet: the standings so far in one line, pending rounds, and the entry form of the
// match's game under the round's number and who deals, with Save in a bar at the bottom of the
// screen. Saving puts the round in the outbox first (with its Idempotency-Key) and sends it:
// accepted → the next round's form at once, under the new standings (the winner screen once the
// match is decided); rejected → the API's errors at the fields; no connection → shown as pending
// and sent later. Also the correction of an earlier round (PUT with If-Match).
// Decision: the next round opens by itself after Save, because a table enters round after round;
// the full standings and the round-by-round sheet are one tab away.
// The screen reads the match again whenever the outbox changes (a waiting round sent when the
// connection came back, here or by the service worker) or the live stream says it moved on, and
// the entry form asks its guide again once the connection is back.
// Two phones on one round: the form keeps the match version and the round number it was drawn
// for, and Save sends that version (If-Match, through the outbox). A live update renumbers a
// form nobody has typed into yet; one being typed into keeps its number, and if another phone
// saved that round meanwhile the API refuses it (412): the phone then shows what the other
// phone saved, in place of the form, and asks whether to keep the numbers as the next round
// (they come back into the form under its number, to be checked and saved) or to drop them.
// Decision: a round waiting offline that meets a changed match asks the same question; the
// later rounds waiting behind it ask theirs one after the other, oldest first. A waiting round
// is named by the round it was typed as: one the server stored whose answer was lost is still
// that round, not the one after it.
// A game without an end of its own (the score pad: `finish` in /games) is finished with a button
// beside the round's heading, tapped twice (the second tap says what it does), with the version
// shown (If-Match): it needs the connection, as it decides the match for every phone. Undoing its
// last round (history) opens it again. A game whose form shows the running totals itself
// (`totalsInForm`: the score pad) leaves out the standings line above it, so six players' fields
// and Save fit one phone screen.
// Decision: only a game that asks for it (`focusFirst`) has its first field focused as a new
// round's form opens: the others start with a choice to tap (a winner, a mode).
import { Problem, call, guide as askGuide } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { clearErrors, forgetErrorsOnEdit, showErrors, showLive } from '../form.js';
import { dismiss, enqueue, onChange as onOutboxChange, pending, rejected, replay } from '../outbox.js';
import { follow, oneAtATime } from '../live.js';
import { goFromHere } from '../router.js';
import { writeToken } from '../store.js';
import { openTablePhone } from '../tournaments/phone.js';
import { tableClock } from '../tournaments/table-clock.js';
import { dealerOf, errorScreen, header, loadView, newest, problemText, roundT, standingsStrip } from '../match-view.js';

function requestSync() {
  navigator.serviceWorker?.ready.then((reg) => reg.sync?.register('outbox')).catch(() => {});
}

// A table's phone asks for its key as the table's link opens (tournaments/phone.js). A round
// saved before the answer came would name the phone by its device id alone, which any phone can
// send: the phone that entered the result could then confirm it itself. So Save waits for a key
// on its way, but never longer than KEY_WAIT: offline, the round is kept without it.
const KEY_WAIT = 5000;

function keyOnItsWay(matchId) {
  return Promise.race([openTablePhone(matchId).catch(() => null),
    new Promise((resolve) => { setTimeout(resolve, KEY_WAIT); })]);
}

/** "Round 3", and who deals it: the next dealer after the `queued` rounds still waiting to be sent. */
function roundHeading(match, round, queued) {
  const dealer = queued != null && dealerOf(match, queued);
  return [roundT(match.game, 'sheet.round_n', { n: round }),
    dealer && h('span', { class: 'dealer' }, t('standings.next_dealer', { name: dealer.name }))];
}

function entryPanel(view, { round, version = null, initial, onSave, saveLabel, queued = null, extra = null,
  headExtra = null }) {
  const { match, game, module } = view;
  const form = h('form', { class: 'panel entry-form', novalidate: true });
  form.dataset.round = String(round);
  if (version != null) form.dataset.version = String(version);
  if (initial) form.dataset.touched = '';
  let asked = 0;
  const editor = module.entryForm({ match, game, initial, round,
    // The game's help for what is typed now; undefined when a later question overtook this one
    // (its answer would be about numbers no longer on the screen), null when offline.
    guide: async (partial) => {
      const mine = ++asked;
      const answer = await askGuide(match.id, partial, initial ? round : undefined);
      return mine === asked ? answer : undefined;
    },
    report: (errors) => showLive(form, errors) });
  // Typed into: the form is about one hand now, and a live update no longer renumbers it.
  const touched = (event) => { if (editor.el.contains(event.target)) form.dataset.touched = ''; };
  form.addEventListener('input', touched);
  form.addEventListener('click', touched);
  const submit = h('button', { type: 'submit', class: 'primary save' }, saveLabel);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    submit.disabled = true;
    // While its round is being saved the form keeps its number: a live update that arrives
    // before the answer must not renumber the round being sent.
    form.dataset.saving = '';
    try {
      await onSave(editor.entry(), form);
    } finally {
      submit.disabled = false;
      delete form.dataset.saving;
    }
  });
  forgetErrorsOnEdit(form);
  replace(form, h('div', { class: 'entry-head' }, h('h2', {}, roundHeading(match, round, queued)),
    editor.tools, headExtra), editor.el, h('div', { class: 'action-bar' }, h('div', {}, extra, submit)));
  if (editor.reguide) {
    const again = () => (form.isConnected ? editor.reguide() : removeEventListener('online', again));
    addEventListener('online', again);
  }
  return { form, editor };
}

export async function sheetScreen(root, id) {
  const go = goFromHere();
  let view;
  try { view = await loadView(id); } catch (error) { return errorScreen(root, error); }
  if (view.match.status === 'finished') return go(`#/m/${encodeURIComponent(id)}/winner`, true);
  // A view link opens where a viewer has something to read, not on an entry tab without a form.
  if (!view.canWrite) return go(`#/m/${encodeURIComponent(id)}/standings`, true);
  const summary = h('section', { class: 'summary' });
  const waiting = h('section', { class: 'pending', 'aria-live': 'polite' });
  let form = null;
  let editor = null;
  let retry = null; // a rejected round loaded back into the form
  const isStale = (item) => item.problem?.status === 412;

  /** What another phone saved since `item` was typed, and what to do with `item`'s numbers. */
  function staleQuestion(item, first, keepAs) {
    const { match, module } = view;
    const sides = module.sides(match);
    const theirs = match.rounds.filter((r) => r.number >= (item.round ?? match.rounds.length + 1));
    return h('div', { class: 'rejected stale', role: 'alert', 'data-stale': item.key },
      theirs.length ? [h('p', {}, roundT(match.game, 'sheet.stale', { n: theirs[0].number })),
        theirs.map((r) => h('p', { class: 'their-round', 'data-round': r.number },
          h('strong', {}, roundT(match.game, 'sheet.round_n', { n: r.number })), ' ',
          module.roundCells(match, r).map((cell, side) => `${sides[side]?.name ?? ''} ${cell}`).join(' · ')))]
        : h('p', {}, t('sheet.stale_changed')),
      first && h('div', { class: 'stale-actions' },
        h('button', { type: 'button', class: 'primary', onclick: async () => {
          await dismiss(item.seq);
          // The kept numbers go on from the match as it is now, not as a cached read had it.
          try { view = { ...view, match: newest(view.match, (await loadView(id)).match) }; } catch { /* offline: as shown */ }
          retry = { body: item.body, problem: null };
          await drawWaiting();
          drawForm();
        } }, roundT(match.game, 'sheet.stale_keep', { n: keepAs })),
        h('button', { type: 'button', class: 'secondary', onclick: async () => {
          await dismiss(item.seq);
          await drawWaiting();
          drawForm();
        } }, t('sheet.stale_drop'))));
  }

  async function drawWaiting() {
    const [queued, refused] = await Promise.all([pending(id), rejected(id)]);
    const stale = refused.filter(isStale);
    const keepAs = view.match.rounds.length + queued.length + 1;
    replace(waiting,
      stale.map((item, i) => staleQuestion(item, i === 0, keepAs)),
      queued.map((item, i) => h('p', { class: 'pending-round', 'data-pending': item.key },
        roundT(view.match.game, 'sheet.pending', { n: item.round ?? view.match.rounds.length + i + 1 }))),
      refused.filter((item) => !isStale(item)).map((item) => h('div', { class: 'rejected', role: 'alert' },
        h('p', {}, roundT(view.match.game, 'sheet.rejected'), ' ', item.problem.errors.length
          ? item.problem.errors.map((error) => error.message).join(' ') : item.problem.detail),
        h('button', { type: 'button', class: 'secondary', onclick: async () => {
          await dismiss(item.seq);
          retry = item;
          drawForm();
          drawWaiting();
        } }, t('sheet.fix')))));
    return { queued: queued.length, stale: stale.length };
  }

  // One drawing at a time, each deciding from the state when it runs: a round's save draws the
  // form again while the player may already be answering the next question ("Keep my numbers"),
  // and two drawings interleaved replaced the kept numbers by an empty form.
  const drawForm = oneAtATime(async () => {
    // A form holding kept numbers stays until they are saved.
    if (!retry && form && 'kept' in form.dataset) return;
    // While another phone's round waits for an answer, the question stands in for the form.
    const asking = !retry && (await rejected(id)).some(isStale);
    if (!view.canWrite || view.match.status === 'finished' || asking) {
      form?.remove();
      form = null;
      editor = null;
      return;
    }
    const queued = (await pending(id)).length;
    const fresh = entryPanel(view, { round: view.match.rounds.length + queued + 1, initial: retry?.body,
      version: view.match.version + queued, saveLabel: roundT(view.match.game, 'sheet.save'), onSave: save, queued,
      headExtra: finishButton() });
    if (retry?.problem) showErrors(fresh.form, retry.problem.errors, retry.problem.detail);
    else if (retry) fresh.form.dataset.kept = '';
    retry = null;
    if (form) form.replaceWith(fresh.form); else root.append(fresh.form);
    ({ form, editor } = fresh);
    // A fresh round of a game whose first step is typing (`focusFirst`: the score pad) opens
    // with its first field focused, so a round is typed and saved; one holding numbers is not.
    if (!('touched' in form.dataset)) editor.focusFirst?.();
  });

  function finishButton() {
    const { match, game } = view;
    if (!game.finish || !view.canWrite || match.rounds.length === 0) return null;
    const button = h('button', { type: 'button', class: 'secondary finish', onclick: async () => {
      if (!('sure' in button.dataset)) {
        button.dataset.sure = '';
        button.textContent = t('pad.finish_sure', { n: view.match.rounds.length });
        return;
      }
      button.disabled = true;
      try {
        await call(`/matches/${encodeURIComponent(id)}/finish`, { method: 'POST', match: id, write: true,
          headers: { 'If-Match': `"${view.match.version}"` } });
        go(`#/m/${encodeURIComponent(id)}/winner`);
      } catch (error) {
        button.disabled = false;
        toast(error instanceof Problem && error.status === 412 ? t('error.stale') : problemText(error));
        await refresh();
      }
    } }, t('pad.finish'));
    return button;
  }

  function drawSummary() {
    const { match } = view;
    replace(summary, !(view.module.totalsInForm && view.canWrite) && standingsStrip(match),
      !view.canWrite && h('p', { class: 'hint' }, roundT(match.game, 'sheet.view_only')));
    summary.hidden = !summary.childElementCount;
  }

  async function save(entry, panel) {
    // Offline nobody can check the round before it waits: what the form knows is missing is
    // said now (editor.missing, from /games), rather than refused once the phone is back.
    const missing = navigator.onLine ? [] : editor?.missing?.() ?? [];
    if (missing.length) {
      showErrors(panel, missing);
      return;
    }
    await keyOnItsWay(id);
    const item = await enqueue({ matchId: id, body: entry, token: writeToken(id),
      version: Number(panel.dataset.version), round: Number(panel.dataset.round) });
    const outcomes = await replay().catch(() => []);
    const mine = outcomes.find((o) => o.item.seq === item.seq);
    const state = mine?.state
      || ((await pending(id)).some((i) => i.seq === item.seq) ? 'pending'
        : (await rejected(id)).some((i) => i.seq === item.seq) ? 'rejected' : 'sent');
    if (state === 'sent') {
      delete panel.dataset.kept;
      if (mine?.data?.status === 'finished') {
        go(`#/m/${encodeURIComponent(id)}/winner`);
        return;
      }
      toast(roundT(view.match.game, 'sheet.saved', { n: mine?.data?.number ?? item.round }));
      await refresh();
      await drawForm();
      window.scrollTo(0, 0);
    } else if (state === 'rejected') {
      const problem = mine?.problem || (await rejected(id)).find((i) => i.seq === item.seq).problem;
      if (problem.status === 412) { // another phone saved this round: ask, in place of the form
        delete panel.dataset.kept;
        await refresh();
        await drawForm();
        window.scrollTo(0, 0);
        return;
      }
      await dismiss(item.seq);
      // Numbers changed while the round was on its way: its problems are about numbers no
      // longer on the screen (the game's guide speaks about those that are), and would stay.
      if (JSON.stringify(editor?.entry()) === JSON.stringify(entry)) {
        showErrors(panel, problem.errors, problem.detail);
      }
    } else {
      // Only a round the page could not send is left to the service worker: asked at once, its
      // background sync would race the page's own send, whose answer the page shows.
      requestSync();
      toast(roundT(view.match.game, 'sheet.saved_offline'));
      await drawWaiting();
      drawForm();
    }
  }

  const refresh = oneAtATime(async () => {
    try {
      view = { ...view, match: newest(view.match, (await loadView(id)).match) };
    } catch {
      return;
    }
    if (view.match.status === 'finished') {
      go(`#/m/${encodeURIComponent(id)}/winner`, true);
      return;
    }
    drawSummary();
    const { queued, stale } = await drawWaiting();
    if (stale && form && !('kept' in form.dataset)) {
      await drawForm();
      return;
    }
    // A form nobody has typed into yet follows the match to its next round.
    const heading = form && !('saving' in form.dataset) && !('touched' in form.dataset)
      && form.querySelector('h2');
    if (heading) {
      const round = view.match.rounds.length + queued + 1;
      replace(heading, roundHeading(view.match, round, queued));
      form.dataset.round = String(round);
      form.dataset.version = String(view.match.version + queued);
    }
    editor?.reguide?.();
  });

  // A tournament table's phone shows the round clock above the sheet.
  const clock = tableClock(id);
  replace(root, header(view, 'sheet'), clock?.el, summary, waiting);
  drawSummary();
  await drawWaiting();
  await drawForm();
  const stopLive = follow(id, view.match.private, { version: () => view.match.version, refresh });
  const stopOutbox = onOutboxChange((matchId) => { if (matchId === id) refresh(); });
  return () => { stopLive(); stopOutbox(); clock?.stop(); };
}

export async function editRoundScreen(root, id, number) {
  const go = goFromHere();
  let view;
  try { view = await loadView(id); } catch (error) { return errorScreen(root, error); }
  const round = view.match.rounds[Number(number) - 1];
  if (!round || !view.canWrite) return go(`#/m/${encodeURIComponent(id)}/history`, true);
  const base = `#/m/${encodeURIComponent(id)}`;
  const { form } = entryPanel(view, { round: round.number, initial: round.entry, saveLabel: t('edit.save'),
    extra: h('a', { class: 'button secondary', href: `${base}/history` }, t('edit.cancel')),
    onSave: async (entry, panel) => {
      try {
        await call(`/matches/${encodeURIComponent(id)}/rounds/${round.number}`, { method: 'PUT',
          body: entry, match: id, write: true, headers: { 'If-Match': `"${view.match.version}"` } });
        toast(roundT(view.match.game, 'edit.saved', { n: round.number }));
        go(`${base}/history`);
      } catch (error) {
        if (error instanceof Problem && error.status === 412) {
          toast(t('error.stale'));
          view = await loadView(id);
          return;
        }
        showErrors(panel, error instanceof Problem ? error.errors : [], problemText(error));
      }
    } });
  replace(root, header(view, 'history'), h('p', { class: 'hint panel' }, roundT(view.match.game, 'edit.lead', { n: round.number })),
    form);
  return undefined;
}
