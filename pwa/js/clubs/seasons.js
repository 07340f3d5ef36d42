// A club's seasons ("Jahreswertung"): #/c/<id>/season lists them and shows one's table (the
// newest unless one is chosen: #/c/<id>/season/<s>), the organiser makes a new one; a member's
// season line (#/c/<id>/season/<s>/p/<member>: evening by evening, a chart); the board
// (#/c/<id>/season/<s>/board) for a projector at 1280×720 or larger.
// Every number is the API's: points as it writes them (two decimals, said with the locale's
// decimal mark), which evenings count and which are dropped. Nothing is added up here.
// Decisions: in the table each member's evenings are chips in date order, a counted one marked
// with a tick and outlined, a dropped one grey and struck through (so colour is never the only
// sign); the board shows rank, name, points and evenings (the chips would cost a wall its
// names); a season's standings follow the club's event stream (a match finished, corrected or
// typed in later changes the club), and the board says when that stream is down.
import { Problem, csvLayout, download } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { clearErrors, showErrors } from '../form.js';
import { day, languageTag, number, t } from '../i18n.js';
import { lineChart } from '../chart.js';
import { followEvents, oneAtATime } from '../live.js';
import { gameName, problemText } from '../match-view.js';
import { autoScroll, fitToScreen, keepAwake } from '../projector.js';
import { go } from '../router.js';
import { clubTokens } from '../store.js';
import { clubRead, clubWrite } from './api.js';
import { clubError, clubHeader, clubRoute, followClub, loadClub } from './common.js';

const COLUMN_EM = 19; // a board column: rank, a name, points, evenings
const RETRY_MS = 5000;

const seasonsOf = (id) => clubRead(id, '/seasons');
const standingsOf = (id, season) => clubRead(id, `/seasons/${season}/standings`);
/** "5.11." for a chart's axis, where a whole date would run into the next. */
function shortDay(value) {
  const [year, month, date] = value.split('-').map(Number);
  return new Date(year, month - 1, date).toLocaleDateString(languageTag(), { day: 'numeric', month: 'numeric' });
}
const points = (text) => number(Number(text), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const seasonRoute = (id, season, rest = '') => clubRoute(id, `/season/${season}${rest}`);

function seasonFacts(season) {
  return [t('season.period', { from: day(season.from), to: day(season.to) }),
    season.game ? gameName(season.game) : t('season.all_games'),
    season.best ? t('season.best_n', { n: season.best }) : t('season.every_evening')].join(' · ');
}

/** One evening of a member as a chip: its points, counted (ticked) or dropped (grey, struck). */
function eveningChip(night) {
  const state = night.counted ? 'counted' : 'dropped';
  return h('li', { class: `evening evening-${state}`, 'data-date': night.date, 'data-counted': String(night.counted),
    title: `${day(night.date)}: ${points(night.points)}` },
  h('span', { class: 'sr-only' }, `${day(night.date)}: `),
  night.counted ? '✓ ' : '', points(night.points),
  h('span', { class: 'sr-only' }, ` (${t(`season.${state}`)})`));
}

function seasonTable(id, season, rows) {
  return h('table', { class: 'season-table' },
    h('caption', { class: 'sr-only' }, season.name),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('standings.rank')),
      h('th', { scope: 'col' }, t('standings.name')),
      h('th', { scope: 'col', class: 'num' }, t('season.points')),
      h('th', { scope: 'col', class: 'num' }, t('season.evenings')))),
    h('tbody', {}, rows.map((row) => h('tr', { 'data-member': row.player, 'data-rank': row.rank },
      h('td', {}, t('rank.ordinal', { n: row.rank })),
      h('th', { scope: 'row' }, h('a', { href: seasonRoute(id, season.id, `/p/${row.player}`) }, row.name),
        h('ul', { class: 'evenings', 'aria-label': t('season.evenings_of', { name: row.name }) },
          row.line.map(eveningChip))),
      h('td', { class: 'num', 'data-points': row.points }, points(row.points)),
      h('td', { class: 'num' }, number(row.evenings))))));
}

/** The organiser's form for a new season: name, first and last evening, game or all, best N. */
function seasonForm(view, done) {
  const { club } = view;
  const form = h('form', { class: 'panel new-season no-print', novalidate: true });
  const field = (path, label, input) => h('div', { class: 'field', 'data-path': path },
    h('label', { for: input.id }, label), input);
  const year = new Date().getFullYear();
  const name = h('input', { id: 'season-name', type: 'text', maxlength: 80, autocomplete: 'off', value: String(year) });
  const from = h('input', { id: 'season-from', type: 'date', value: `${year}-01-01`, required: true });
  const to = h('input', { id: 'season-to', type: 'date', value: `${year}-12-31`, required: true });
  const game = h('select', { id: 'season-game' }, h('option', { value: '' }, t('season.all_games')),
    club.games.map((g) => h('option', { value: g }, gameName(g))));
  const best = h('input', { id: 'season-best', type: 'number', min: 1, max: 1000, inputmode: 'numeric',
    'aria-describedby': 'season-best-hint' });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { name: name.value, from: from.value, to: to.value };
    if (game.value) body.game = game.value;
    if (best.value) body.best = Number(best.value);
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      const made = await clubWrite(club.id, '/seasons', 'POST', body);
      clearErrors(form);
      toast(t('season.created', { name: made.name }));
      done(made);
    } catch (error) {
      showErrors(form, error instanceof Problem ? error.errors : [], problemText(error));
    } finally {
      button.disabled = false;
    }
  });
  return replace(form, h('h2', {}, t('season.new')),
    field('name', t('season.name'), name),
    h('div', { class: 'row' }, field('from', t('season.from'), from), field('to', t('season.to'), to)),
    field('game', t('new.game'), game),
    field('best', t('season.best'), best), h('p', { class: 'hint', id: 'season-best-hint' }, t('season.best_hint')),
    h('button', { type: 'submit', class: 'primary' }, t('season.create')));
}

export async function seasonsScreen(root, id, chosen) {
  let view;
  const form = { el: null };
  async function draw() {
    view = await loadClub(id);
    const seasons = await seasonsOf(id);
    const season = seasons.find((s) => String(s.id) === String(chosen)) ?? seasons[seasons.length - 1];
    if (chosen && !season) throw new Problem(404, { title: t('season.none') });
    if (view.canWrite && !form.el) form.el = seasonForm(view, (made) => go(seasonRoute(id, made.id)));
    const rows = season ? await standingsOf(id, season.id) : [];
    const { token, view: viewToken } = clubTokens(id);
    const picker = seasons.length > 1 && h('div', { class: 'field no-print' },
      h('label', { for: 'season-pick' }, t('season.pick')),
      h('select', { id: 'season-pick', onchange: (event) => go(seasonRoute(id, event.target.value), true) },
        seasons.map((s) => h('option', { value: s.id, selected: s.id === season.id }, s.name))));
    const actions = season && h('div', { class: 'row season-actions no-print' },
      h('a', { class: 'button secondary', href: seasonRoute(id, season.id, '/board') }, t('season.board')),
      h('button', { type: 'button', class: 'secondary', onclick: () => download(
        `/clubs/${encodeURIComponent(id)}/seasons/${season.id}/standings?format=csv${csvLayout()}`,
        `club-${id}-season-${season.id}.csv`, token || viewToken).catch((error) => toast(problemText(error))) },
      t('season.csv')),
      h('button', { type: 'button', class: 'secondary', onclick: () => print() }, t('season.print')));
    replace(root, clubHeader(view, 'season'),
      h('section', { class: 'panel season' },
        season ? [h('h2', {}, season.name), h('p', { class: 'note' }, seasonFacts(season)), picker,
          rows.length ? seasonTable(id, season, rows) : h('p', { class: 'hint' }, t('season.empty')),
          h('p', { class: 'hint no-print' }, t('season.legend')), actions]
          : h('p', { class: 'hint' }, t('season.none'))),
      form.el);
  }
  try { await draw(); } catch (error) { return clubError(root, error); }
  return followClub(id, () => view.club.version, async () => {
    try { await draw(); } catch { /* shown as it was */ }
  });
}

/** A member's season: every evening with its points, counted or dropped, and a chart of them. */
export async function seasonLineScreen(root, id, seasonId, memberId) {
  let view;
  async function draw() {
    view = await loadClub(id);
    const [seasons, rows] = await Promise.all([seasonsOf(id), standingsOf(id, seasonId)]);
    const season = seasons.find((s) => String(s.id) === String(seasonId));
    const row = rows.find((r) => String(r.player) === String(memberId));
    const member = view.club.players.find((m) => String(m.id) === String(memberId));
    const name = row?.name ?? member?.name ?? '';
    const line = row?.line ?? [];
    const chart = line.length > 0 && lineChart({
      title: t('season.line_chart', { name }), xLabel: t('season.evening'), yLabel: t('season.points'),
      series: [{ name, points: line.map((night, i) => ({ x: i + 1, y: Number(night.points) })) }],
      formatX: (x) => (line[x - 1] ? shortDay(line[x - 1].date) : ''), formatY: (y) => number(y),
    });
    replace(root, clubHeader(view, 'season'),
      h('section', { class: 'panel season-line' },
        h('h2', {}, t('season.line_title', { name, season: season?.name ?? '' })),
        h('p', { class: 'no-print' }, h('a', { class: 'button secondary', href: seasonRoute(id, seasonId) }, t('season.back'))),
        row ? h('p', { class: 'season-summary' }, t('season.summary', {
          rank: t('rank.ordinal', { n: row.rank }), points: points(row.points), n: row.evenings,
          best: points(row.best_evening) })) : h('p', { class: 'hint' }, t('season.no_evenings')),
        line.length > 0 && h('table', { class: 'season-evenings' },
          h('caption', { class: 'sr-only' }, t('season.evenings_of', { name })),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('season.evening')),
            h('th', { scope: 'col', class: 'num' }, t('season.points')), h('th', { scope: 'col' }, t('season.counts')))),
          h('tbody', {}, line.map((night) => h('tr', { class: `evening-row evening-${night.counted ? 'counted' : 'dropped'}`,
            'data-date': night.date, 'data-counted': String(night.counted) },
          h('th', { scope: 'row' }, day(night.date)), h('td', { class: 'num' }, points(night.points)),
          h('td', {}, night.counted ? `✓ ${t('season.counted')}` : t('season.dropped')))))),
        chart));
  }
  try { await draw(); } catch (error) { return clubError(root, error); }
  return followClub(id, () => view.club.version, async () => {
    try { await draw(); } catch { /* shown as it was */ }
  });
}

function boardColumns(rows, columns) {
  const per = Math.ceil(rows.length / columns) || 1;
  const chunks = [];
  for (let at = 0; at < rows.length; at += per) chunks.push(rows.slice(at, at + per));
  return chunks.map((chunk) => h('table', { class: 'board-standings' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, t('standings.rank')),
      h('th', { scope: 'col' }, t('standings.name')),
      h('th', { scope: 'col', class: 'num' }, t('season.points')),
      h('th', { scope: 'col', class: 'num' }, t('season.evenings_short')))),
    h('tbody', {}, chunk.map((row) => h('tr', { 'data-member': row.player, 'data-rank': row.rank },
      h('td', { class: 'num' }, t('rank.ordinal', { n: row.rank })),
      h('th', { scope: 'row', class: 'board-name' }, row.name),
      h('td', { class: 'num', 'data-points': row.points }, points(row.points)),
      h('td', { class: 'num' }, number(row.evenings)))))));
}

async function readBoard(id, seasonId) {
  const [club, seasons, rows] = await Promise.all([clubRead(id), seasonsOf(id), standingsOf(id, seasonId)]);
  const season = seasons.find((s) => String(s.id) === String(seasonId));
  if (!season) throw new Problem(404, { title: t('season.none') });
  return { club, season, rows };
}

/** The season on a projector: as the tournament's board, fitted to the screen, live. */
export async function seasonBoardScreen(root, id, seasonId) {
  let stopped = false;
  let timer = 0;
  let stop = null;
  const open = async () => {
    let first;
    try { first = await readBoard(id, seasonId); } catch (error) {
      if (stopped) return;
      clubError(root, error);
      if (!(error instanceof Problem && error.status < 500)) timer = setTimeout(open, RETRY_MS);
      return;
    }
    if (!stopped) stop = showBoard(root, id, seasonId, first);
  };
  await open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    stop?.();
  };
}

function showBoard(root, id, seasonId, first) {
  let shown = first;
  const title = h('h1', {});
  const facts = h('p', { class: 'board-facts', id: 'season-facts' });
  const offline = h('p', { class: 'board-offline', id: 'board-offline', role: 'status', hidden: true }, t('board.reconnecting'));
  const full = h('button', { type: 'button', class: 'secondary board-full', onclick: () => document.documentElement.requestFullscreen?.().catch(() => {}) },
    t('board.fullscreen'));
  const head = h('header', { class: 'board-head' }, h('div', { class: 'board-title' }, title, facts),
    offline, h('nav', { class: 'board-exit' }, full, h('a', { href: seasonRoute(id, seasonId) }, t('season.back'))));
  const body = h('div', { class: 'board-body' });
  const board = h('div', { class: 'board-screen season-board' }, head, body);
  const scroller = autoScroll(body);

  function drawAt(px) {
    const { club, season, rows } = shown;
    board.style.setProperty('--board-font', `${px}px`);
    replace(title, season.name, h('small', {}, ` · ${club.name}`));
    facts.textContent = seasonFacts(season);
    const columnsBox = h('div', { class: 'board-columns' });
    replace(body, h('section', { class: 'board-ranking', 'aria-labelledby': 'board-standings-title' },
      h('h2', { id: 'board-standings-title', class: 'sr-only' }, season.name),
      rows.length ? columnsBox : h('p', {}, t('season.empty'))));
    let columns = Math.max(1, Math.floor(columnsBox.clientWidth / (COLUMN_EM * px)));
    for (;;) {
      replace(columnsBox, boardColumns(rows, columns));
      if (columns === 1 || columnsBox.scrollWidth <= columnsBox.clientWidth + 1) break;
      columns -= 1;
    }
  }
  const fits = () => body.scrollHeight <= body.clientHeight + 1 && board.scrollWidth <= board.clientWidth + 1;
  const draw = () => fitToScreen(drawAt, fits, scroller);

  let closed = false;
  let resizeTimer = 0;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 150); };
  const onFullscreen = () => { full.hidden = !!document.fullscreenElement; };
  document.body.classList.add('projector');
  replace(root, board);
  draw();
  addEventListener('resize', onResize);
  document.addEventListener('fullscreenchange', onFullscreen);
  const sleepless = keepAwake();
  const { token, view } = clubTokens(id);
  const stopEvents = followEvents(`/api/v1/clubs/${encodeURIComponent(id)}/events`, token || view, {
    version: () => shown.club.version,
    refresh: oneAtATime(async () => {
      try { shown = await readBoard(id, seasonId); } catch { return; }
      if (!closed) draw();
    }),
    connected: (open) => { offline.hidden = open; },
  });
  return () => {
    closed = true;
    stopEvents();
    scroller.stop();
    sleepless();
    clearTimeout(resizeTimer);
    removeEventListener('resize', onResize);
    document.removeEventListener('fullscreenchange', onFullscreen);
    document.body.classList.remove('projector');
  };
}
