// Projector board (#/t/<id>/board), made to be left alone on a wall for an evening at 1280×720 or
// 1920×1080: no app bar and no tabs; the round and how many tables are done; while a round is
// played its seating (who sits at which table) with each table's state; the standings in as many
// columns as the width takes. Everything is sized to fit the screen at once (the largest font that
// fits, at least 14 px); a field too large for that scrolls by itself, slowly, pausing at either
// end, or turns a page every few seconds for whoever asks for less motion (projector.js, which
// the club's season board shares).
// Live from the tournament's event stream (live.js reconnects with backoff and reads again what
// changed while away); a line says so while the stream is down. The screen stays awake where the
// browser offers a wake lock (a secure origin: localhost or https).
// Decisions: the standings show rank, name and points, ranked by the tiebreak chain (its columns
// are on the dashboard and the printout: on a wall they cost a column of names); seats are listed
// in seat order; a complete round's seating gives way to the standings until the next round
// starts; an update replaces the board's elements, nothing accumulates between updates.
// Tournament day: the round clock stands large in the board's head while it runs (clock.js); while
// players may check in, the check-in QR code stands beside the seating or standings (the board is
// opened from the organiser's dashboard, whose reads carry the code).
import { Problem } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { oneAtATime } from '../live.js';
import { autoScroll, fitToScreen, keepAwake } from '../projector.js';
import {
  currentRound, droppedMark, followTournament, formatNumber, loadStandings, loadTournament, playerNames, roundLine,
  standingsCaption, stateBadge, tiebreakKeys, tiebreakLabel, tournamentError, tournamentRoute,
} from './common.js';
import { checkInLink, checkInOpen } from './checkin-link.js';
import { clockFace } from './clock.js';

const COLUMN_EM = 17; // a standings column: rank, a name, points (the tiebreak, when shown, narrows them)
const RETRY_MS = 5000;

function standingsColumns(tournament, standings, columns, withTiebreak) {
  const per = Math.ceil(standings.rows.length / columns) || 1;
  const chunks = [];
  for (let at = 0; at < standings.rows.length; at += per) chunks.push(standings.rows.slice(at, at + per));
  // The first tiebreak after the points: what separates players the points leave tied.
  const [tiebreak] = withTiebreak ? tiebreakKeys(tournament, standings.rows) : [];
  return chunks.map((rows) => h('table', { class: 'board-standings' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, t('standings.rank')),
      h('th', { scope: 'col' }, t('standings.name')),
      h('th', { scope: 'col', class: 'num' }, t('tt.points')),
      tiebreak && h('th', { scope: 'col', class: 'num', 'data-tiebreak': tiebreak }, tiebreakLabel(tiebreak)))),
    h('tbody', {}, rows.map((row) => h('tr', { 'data-player': row.player, 'data-rank': row.rank,
      class: row.active === false ? 'inactive' : null },
    h('td', { class: 'num' }, t('rank.ordinal', { n: row.rank })),
    h('th', { scope: 'row', class: 'board-name' }, row.name, droppedMark(row)),
    h('td', { class: 'num', 'data-total': 'points' }, formatNumber(row.points)),
    tiebreak && h('td', { class: 'num', 'data-tiebreak': tiebreak }, formatNumber(row.tiebreaks[tiebreak])))))));
}

/**
 * A finished tournament's winner and podium: every player ranked 1 to 3 (a shared rank shares
 * its step), above the full standings.
 */
function podium(tournament, standings) {
  if (tournament.status !== 'finished' || !standings.rows.length) return null;
  const top = standings.rows.filter((row) => row.rank <= 3);
  const winners = top.filter((row) => row.rank === 1).map((row) => row.name);
  return h('section', { class: 'board-podium', 'aria-labelledby': 'board-winner' },
    h('h2', { id: 'board-winner' }, t(winners.length > 1 ? 'winner.shared' : 'winner.single', { names: winners })),
    h('ol', { class: 'podium' }, [1, 2, 3].map((rank) => top.filter((row) => row.rank === rank))
      .filter((rows) => rows.length).map((rows) => h('li', { 'data-rank': rows[0].rank },
        h('span', { class: 'podium-place' }, t('rank.ordinal', { n: rows[0].rank })), ' ',
        rows.map((row) => row.name).join(', '), ' ',
        h('span', { class: 'podium-points' }, formatNumber(rows[0].points))))));
}

function seating(tournament, round) {
  const names = playerNames(tournament);
  return h('section', { class: 'board-seating', 'aria-labelledby': 'board-seating-title' },
    // The round line above says which round: the heading is there for screen readers.
    h('h2', { id: 'board-seating-title', class: 'sr-only' }, t('board.seating', { n: round.number })),
    h('ul', { class: 'board-tables' }, round.tables.map((table) => h('li', {
      class: `board-table table-${table.state}`, 'data-table': table.table, 'data-state': table.state },
    h('div', { class: 'board-table-head' }, h('strong', {}, t('tt.table_n', { n: table.table })), stateBadge(table.state)),
    h('ol', { class: 'board-seats' }, table.players.map((pid) => h('li', { 'data-player': pid }, names.get(pid))))))));
}

/** The round's progress: tables done (confirmed) of all. */
function progress(round) {
  if (!round || round.status !== 'playing') return null;
  const done = round.tables.filter((table) => table.state === 'confirmed').length;
  return h('p', { class: 'board-progress', id: 'tables-done' }, t('board.tables_done', { done, n: round.tables.length }));
}

async function read(id) {
  const [tournament, standings] = await Promise.all([loadTournament(id), loadStandings(id)]);
  return { tournament, standings };
}

/**
 * The board, once the tournament is read. A board opened while the server is away (the projector
 * switched on before the server, a reload during a restart, nothing kept from an earlier visit)
 * says why and opens by itself once it can; a tournament that does not exist or is private stays
 * an error.
 */
export async function boardScreen(root, id) {
  let stopped = false;
  let timer = 0;
  let stop = null;
  const open = async () => {
    let first;
    try { first = await read(id); } catch (error) {
      if (stopped) return;
      tournamentError(root, error);
      if (!(error instanceof Problem && error.status < 500)) timer = setTimeout(open, RETRY_MS);
      return;
    }
    if (!stopped) stop = showBoard(root, id, first);
  };
  await open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    stop?.();
  };
}

function showBoard(root, id, first) {
  let { tournament, standings } = first;
  const title = h('h1', {});
  const roundText = h('p', { id: 'round-line', class: 'board-round' });
  const done = h('div', { class: 'board-progress-place' });
  const offline = h('p', { class: 'board-offline', id: 'board-offline', role: 'status', hidden: true }, t('board.reconnecting'));
  const full = h('button', { type: 'button', class: 'secondary board-full', onclick: () => document.documentElement.requestFullscreen?.().catch(() => {}) },
    t('board.fullscreen'));
  const head = h('header', { class: 'board-head' }, h('div', { class: 'board-title' }, title, roundText, done),
    offline, h('nav', { class: 'board-exit' }, full, h('a', { href: tournamentRoute(id) }, t('tt.to_tournament'))));
  const body = h('div', { class: 'board-body' });
  const clock = clockFace();
  const board = h('div', { class: 'board-screen' }, head, clock.el, body);
  const scroller = autoScroll(body);
  let withTiebreak = true;

  /**
   * The board at `px`: standings in as many columns as the width holds with every name on one
   * line (a guess from the width, then fewer while a column is too narrow for its names).
   */
  function drawAt(px) {
    board.style.setProperty('--board-font', `${px}px`);
    const round = currentRound(tournament);
    const playing = round && round.status === 'playing';
    replace(title, tournament.name, h('small', {}, ` · ${tournament.options?.title || t(`game.${tournament.game}`)}`));
    roundText.textContent = roundLine(tournament);
    replace(done, progress(round));
    const columnsBox = h('div', { class: 'board-columns' });
    const link = checkInOpen(tournament) && checkInLink(tournament);
    replace(body, link && h('section', { class: 'board-check-in', id: 'board-check-in' },
      h('h2', {}, t('ci.qr_title')),
      h('img', { class: 'board-qr', src: `/api/v1/qr?text=${encodeURIComponent(link)}`, alt: t('share.qr_of', { what: t('ci.qr_title') }),
        'data-link': link })),
    playing && seating(tournament, round), podium(tournament, standings),
      h('section', { class: 'board-ranking', 'aria-labelledby': 'board-standings-title' },
        h('h2', { id: 'board-standings-title' }, standingsCaption(tournament, standings)),
        columnsBox));
    let columns = Math.max(1, Math.floor(columnsBox.clientWidth / (COLUMN_EM * px)));
    for (;;) {
      replace(columnsBox, standingsColumns(tournament, standings, columns, withTiebreak));
      if (columns === 1 || columnsBox.scrollWidth <= columnsBox.clientWidth + 1) break;
      columns -= 1;
    }
  }

  const fits = () => body.scrollHeight <= body.clientHeight + 1 && board.scrollWidth <= board.clientWidth + 1
    && body.scrollWidth <= body.clientWidth + 1;

  // The largest font at which the board fits (projector.js), with the tiebreak column while
  // everyone still fits with it: a field too large goes without.
  const withoutTiebreak = () => {
    if (!withTiebreak) return false;
    withTiebreak = false;
    return true;
  };
  function draw() {
    clock.update(tournament.clock, tournament.warn_minutes);
    withTiebreak = true;
    fitToScreen(drawAt, fits, scroller, withoutTiebreak);
  }

  let closed = false; // a read still under way when the board is left draws nothing
  let resizeTimer = 0;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 150); };
  const onFullscreen = () => { full.hidden = !!document.fullscreenElement; };

  document.body.classList.add('projector');
  replace(root, board);
  draw();
  addEventListener('resize', onResize);
  document.addEventListener('fullscreenchange', onFullscreen);
  const sleepless = keepAwake();
  const stop = followTournament(tournament, {
    version: () => tournament.version,
    refresh: oneAtATime(async () => {
      try { ({ tournament, standings } = await read(id)); } catch { return; }
      if (!closed) draw();
    }),
    connected: (open) => { offline.hidden = open; },
  });
  return () => {
    closed = true;
    stop();
    clock.stop();
    scroller.stop();
    sleepless();
    clearTimeout(resizeTimer);
    removeEventListener('resize', onResize);
    document.removeEventListener('fullscreenchange', onFullscreen);
    document.body.classList.remove('projector');
  };
}
