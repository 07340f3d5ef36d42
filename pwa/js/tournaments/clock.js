// The round clock, large, on the board, the organiser's dashboard, a table's phone and a player's
// view; and the organiser's controls (start, pause, resume, +5 for all, +N for one table).
// Ticks here every second from the server's `ends_at`, corrected for this device's own clock: the
// server answers `remaining_s` counted at its time of the answer, so its time then is
// `ends_at - remaining_s`; the difference to this device's time when the answer arrived is added
// to every tick, so a phone whose clock is minutes wrong still shows the server's time left (to
// about a second, plus the answer's way over the network). A paused clock shows what is left,
// still. From `warn_minutes` left it turns to its warning style; at zero it says "Time!" (the
// round does not end by itself: the organiser decides).
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

/** mm:ss, or h:mm:ss from an hour on. */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const pad = (n) => String(n).padStart(2, '0');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours ? `${hours}:${pad(minutes)}:${pad(s % 60)}` : `${pad(minutes)}:${pad(s % 60)}`;
}

/**
 * A clock face that ticks by itself: `update(clock, warnMinutes)` with each new answer (the clock
 * as the API answers it), `stop()` when the screen is left. `table`: this table's own time, where
 * it was given extra. Its digits are large everywhere (at least 40 px, read across a table);
 * `inline` sets the label beside them rather than above, as a table's phone shows it over its
 * score sheet, where every line of height pushes the entry down.
 */
export function clockFace({ table = null, inline = false } = {}) {
  const time = h('span', { class: 'clock-time', 'data-clock-time': '' });
  const label = h('span', { class: 'clock-label' });
  const extra = h('ul', { class: 'clock-tables' });
  const el = h('section', { class: `clock clock-large${inline ? ' clock-inline' : ''}`, id: table == null ? 'clock' : `clock-table-${table}`,
    'aria-label': t('ci.clock'), hidden: true, 'data-state': 'stopped' }, label, time, extra);
  let clock = null;
  let offsetMs = 0;
  let warn = 5;
  let timer = 0;

  function secondsLeft(endsAt, remaining) {
    if (!endsAt) return remaining;
    return (Date.parse(endsAt) - (Date.now() + offsetMs)) / 1000;
  }

  function tick() {
    if (!clock || clock.state === 'stopped') {
      el.hidden = true;
      el.dataset.state = 'stopped';
      return;
    }
    el.hidden = false;
    const own = table != null ? clock.tables[String(table)] : null;
    const left = own ? secondsLeft(own.ends_at, own.remaining_s) : secondsLeft(clock.ends_at, clock.remaining_s);
    const over = left <= 0;
    const state = clock.state === 'paused' ? 'paused' : over ? 'time' : left <= warn * 60 ? 'warning' : 'running';
    el.dataset.state = state;
    el.classList.toggle('clock-warning', state === 'warning');
    el.classList.toggle('clock-over', state === 'time');
    time.textContent = over && clock.state === 'running' ? t('ci.time_up') : clockText(left);
    label.textContent = clock.state === 'paused' ? t('ci.clock_paused') : t('ci.clock_left');
    // The tables given extra time, under the clock of everyone else (not on a table's own phone).
    replace(extra, table == null && Object.entries(clock.tables).map(([number, x]) => h('li', { 'data-table': number },
      t('ci.table_time', { table: number, time: clockText(secondsLeft(x.ends_at, x.remaining_s)) }))));
  }

  return {
    el,
    update(next, warnMinutes) {
      clock = next;
      warn = warnMinutes ?? 5;
      offsetMs = next && next.ends_at ? (Date.parse(next.ends_at) - next.remaining_s * 1000) - Date.now() : 0;
      clearInterval(timer);
      tick();
      if (next && next.state === 'running') timer = setInterval(tick, 1000);
    },
    stop() { clearInterval(timer); },
  };
}

/**
 * The organiser's clock controls, made once: `send(body)` posts a clock action and re-reads;
 * `update(clock, tables)` shows the actions the clock's state allows for the current round's
 * `tables`. The fields are never redrawn, so minutes being typed survive a live update.
 */
export function clockControls(send) {
  const minutes = h('input', { id: 'clock-minutes', type: 'number', min: 1, max: 600, value: 40, inputmode: 'numeric' });
  const table = h('select', { id: 'clock-table' });
  const tableMinutes = h('input', { id: 'clock-table-minutes', type: 'number', min: 1, max: 600, value: 5, inputmode: 'numeric' });
  const start = h('button', { type: 'button', 'data-clock': 'start',
    onclick: () => send({ action: 'start', minutes: Number(minutes.value) }) }, t('ci.start_clock'));
  const pause = h('button', { type: 'button', class: 'secondary', 'data-clock': 'pause',
    onclick: () => send({ action: 'pause' }) }, t('ci.pause'));
  const resume = h('button', { type: 'button', class: 'primary', 'data-clock': 'resume',
    onclick: () => send({ action: 'resume' }) }, t('ci.resume'));
  const five = h('button', { type: 'button', class: 'secondary', 'data-clock': 'extend',
    onclick: () => send({ action: 'extend', minutes: 5 }) }, t('ci.plus_five'));
  const oneTable = h('div', { class: 'row wrap' },
    h('div', { class: 'field', 'data-path': 'table' }, h('label', { for: table.id }, t('ci.one_table')), table),
    h('div', { class: 'field' }, h('label', { for: tableMinutes.id }, t('ci.minutes')), tableMinutes),
    h('button', { type: 'button', class: 'secondary', 'data-clock': 'extend-table',
      onclick: () => send({ action: 'extend', minutes: Number(tableMinutes.value), table: Number(table.value) }) },
    t('ci.extend_table')));
  const el = h('div', { class: 'clock-controls' },
    h('div', { class: 'row wrap' },
      h('div', { class: 'field', 'data-path': 'minutes' }, h('label', { for: minutes.id }, t('ci.minutes')), minutes), start),
    h('div', { class: 'row wrap' }, pause, resume, five), oneTable);
  let shownTables = '';
  return {
    el,
    update(clock, tables) {
      const state = clock?.state ?? 'stopped';
      start.className = state === 'stopped' ? 'primary' : 'secondary';
      pause.hidden = state !== 'running';
      resume.hidden = state !== 'paused';
      five.hidden = state === 'stopped';
      oneTable.hidden = state === 'stopped' || tables.length === 0;
      if (tables.join() !== shownTables) {
        const chosen = table.value;
        shownTables = tables.join();
        replace(table, tables.map((n) => h('option', { value: n, selected: String(n) === chosen }, t('tt.table_n', { n }))));
      }
    },
  };
}
