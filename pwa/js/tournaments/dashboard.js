// The organiser's dashboard (#/t/<id>): register players (late entry too), drop out and come back,
// start the next round, every table's state live, confirm a table, open any table's match to
// correct it, table cards, projector board, exports and the backup. Without the organiser token
// on this device the same page is a read-only overview where players find themselves.
// Decisions: the registration form is never redrawn by live updates, so typing is not lost; a
// round starts with one tap, because the API refuses what cannot be seated and stores nothing then;
// the players' link (QR) carries the view token of a private tournament; under the current round
// the seating plan's repeated meetings stand next to the fewest possible, so the organiser sees
// how good the seating is; under it the round's paper (score sheets, who sits where) to print.
// Tournament day (check-in, paid, the clock): a tournament with check-in shows its code as a QR
// code (the link #/t/<id>/check-in?code=…) while players may still check in; the players' list
// grows live as they do, each with a "paid" box and "18 of 20 paid" above; the round clock
// with its controls stands under the round (clock.js).
import { Problem, apiLink, csvLayout, download } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { clearErrors, showErrors } from '../form.js';
import { oneAtATime } from '../live.js';
import { qrCode, unreachableLinks } from '../address.js';
import { clubTokens, organiserToken, recentTournaments, tournamentReadToken } from '../store.js';
import { getClub } from '../clubs/api.js';
import { checkInLink, checkInOpen } from './checkin-link.js';
import { clockControls, clockFace } from './clock.js';
import {
  canStartRound, followTournament, loadStandings, loadTournament, organiserMatchLink,
  playerNames, roundLine, standingsTable, stateBadge, tournamentCall, tournamentHeader,
  tournamentError, tournamentPath, tournamentProblem, tournamentRoute,
} from './common.js';

function tableCard(tournament, round, table, names, organiser, onConfirm) {
  return h('li', { class: 'table-state', 'data-table': table.table },
    h('div', { class: 'table-head' }, h('strong', {}, t('tt.table_n', { n: table.table })), stateBadge(table.state)),
    h('ol', { class: 'seats' }, table.players.map((pid) => h('li', {}, names.get(pid) ?? `#${pid}`))),
    organiser && h('div', { class: 'row table-actions' },
      organiserMatchLink(tournament, round, table),
      table.state === 'entered' && h('button', { type: 'button', class: 'primary confirm-table',
        onclick: () => onConfirm(round, table) }, t('tt.confirm_as_organiser'))));
}

// How good the seating plan of the current round is: the repeated meetings in the rounds planned
// together, against the fewest any seating of them could have (the engine's lower bound).
function planQuality(plan) {
  if (!plan) return null;
  const rounds = plan.rounds === 1 ? t('tt.round_n', { n: plan.first_round })
    : t('tt.rounds_from_to', { from: plan.first_round, to: plan.first_round + plan.rounds - 1 });
  let key = 'tt.plan_repeats';
  if (plan.repeats === 0) key = 'tt.plan_no_repeats';
  else if (plan.repeats === plan.lower_bound) key = 'tt.plan_fewest';
  else if (plan.lower_bound === 0) key = 'tt.plan_repeats_maybe';
  return h('p', { class: 'hint plan-quality', 'data-repeats': plan.repeats, 'data-lower-bound': plan.lower_bound },
    t(key, { rounds, n: plan.repeats, bound: plan.lower_bound }));
}

// Paper for when the phones fail: the API draws the A4 pages of a round (README, Paper), opened
// in a tab of their own to print; a private tournament's pages need the token, so they are
// fetched with it and saved, like its exports.
function paperLink(tournament, organiser, number, sheet, label) {
  const path = `${tournamentPath(tournament.id)}/rounds/${number}/paper?sheet=${sheet}`;
  const a = h('a', { class: 'button secondary', href: apiLink(path), target: '_blank', 'data-paper': sheet }, label);
  if (tournament.private) {
    const token = organiser ? organiserToken(tournament.id) : tournamentReadToken(tournament.id);
    a.addEventListener('click', (event) => {
      event.preventDefault();
      download(path, `tournament-${tournament.id}-round-${number}-${sheet}.html`, token)
        .catch((error) => toast(tournamentProblem(error)));
    });
  }
  return a;
}

function exportsPanel(tournament, organiser) {
  const path = `${tournamentPath(tournament.id)}/export`;
  const token = organiser ? organiserToken(tournament.id) : tournamentReadToken(tournament.id);
  const link = (format, label, extra = '') => {
    const name = `tournament-${tournament.id}.${format}`;
    const a = h('a', { class: 'button secondary', href: apiLink(`${path}?format=${format}${extra}`),
      download: format === 'html' ? null : name, target: format === 'html' ? '_blank' : null,
      'data-export': format }, label);
    if (tournament.private) {
      a.addEventListener('click', (event) => {
        event.preventDefault();
        download(`${path}?format=${format}${extra}`, name, token).catch((error) => toast(tournamentProblem(error)));
      });
    }
    return a;
  };
  return h('section', { class: 'panel actions exports' }, h('h2', {}, t('tt.exports')),
    link('csv', t('tt.export_csv'), csvLayout()), link('json', t('tt.export_json')),
    link('html', t('tt.export_html')),
    organiser && h('button', { type: 'button', class: 'secondary', 'data-export': 'backup', onclick: () =>
      download(`${tournamentPath(tournament.id)}/backup`, `tournament-${tournament.id}-backup.json`, token)
        .catch((error) => toast(tournamentProblem(error))) }, t('tt.backup')));
}

/**
 * Name and club fields of a player (registering or correcting one), the clubs seen offered.
 * `enterSends`: Enter in the name sends the form (registration); otherwise it goes on to the club.
 */
function playerFields(prefix, { enterSends = false } = {}) {
  const name = h('input', { id: `${prefix}-name`, type: 'text', autocomplete: 'off', maxlength: 60,
    enterkeyhint: enterSends ? 'send' : 'next' });
  const club = h('input', { id: `${prefix}-club`, type: 'text', autocomplete: 'off', maxlength: 60,
    list: 'tt-clubs' });
  if (!enterSends) {
    name.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      club.focus();
    });
  }
  return { name, club, el: [
    h('div', { class: 'field', 'data-path': 'name' }, h('label', { for: name.id }, t('tt.player_name')), name),
    h('div', { class: 'field', 'data-path': 'club' }, h('label', { for: club.id }, t('tt.player_club')), club,
      h('p', { class: 'hint' }, t('tt.club_hint')))] };
}

/** The clubs of the players registered so far, offered as a club field is typed. */
function fillClubs(list, tournament) {
  const clubs = [...new Set(tournament.players.map((p) => p.club).filter(Boolean))].sort();
  replace(list, clubs.map((club) => h('option', { value: club })));
}

// Decision: both fields start empty for the next player; the clubs already registered are offered
// while the club is typed, so players of one club are entered quickly without carrying a club over
// to someone who has none.
// Names at typing speed: Enter in the name (or Add) takes the name and club as they are, empties
// both at once and leaves the focus in the name, so the next name is typed into an empty field
// while the last one is on its way; the players are sent one after the other in the order typed.
// No input is ever read after it was sent, so nothing typed later is appended to a name sent.
// An empty name while others are on their way is a second Enter, not a player: it is ignored.
// A refused player is said above the form with its name and the API's words, and never put back
// into the field (the next name may be typed there already, and would be appended to it).
function registerForm(id, onAdded) {
  const fields = playerFields('tt-player', { enterSends: true });
  const club = recentTournaments().find((x) => x.id === id)?.club;
  if (club && clubTokens(club).token) {
    // A club's tournament: its members are offered as the name is typed (players are members
    // by name; a new name becomes one).
    const members = h('datalist', { id: 'tt-members' });
    fields.name.setAttribute('list', 'tt-members');
    fields.el.push(members);
    getClub(club).then((read) => replace(members, read.players.map((m) => h('option', { value: m.name }))),
      () => {});
  }
  const form = h('form', { class: 'panel register', novalidate: true },
    h('h2', {}, t('tt.register')), fields.el,
    h('button', { type: 'submit', class: 'primary' }, t('tt.add_player')));
  let sending = Promise.resolve();
  let onTheWay = 0;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { name: fields.name.value.trim(), club: fields.club.value.trim() || null };
    if (!body.name && onTheWay) return;
    clearErrors(form);
    fields.name.value = '';
    fields.club.value = '';
    fields.name.focus();
    onTheWay += 1;
    sending = sending.then(async () => {
      try {
        const player = await tournamentCall(id, '/players', { method: 'POST', write: true, body });
        toast(t('tt.added', { name: player.name }));
        onAdded();
      } catch (error) {
        // Said above the form, naming the player: the field may hold the next name already,
        // and a name put back into it would have the next one typed onto it.
        const errors = error instanceof Problem ? error.errors : [];
        showErrors(form, [], t('tt.not_added', { name: body.name,
          why: errors.map((e) => e.message).join(' ') || tournamentProblem(error) }));
      } finally {
        onTheWay -= 1;
      }
    });
  });
  return form;
}

/**
 * Correcting a registered player's name or club (organiser): a panel of its own, never redrawn by
 * live updates, filled when a player's row opens it (and empty otherwise, so its fields are never
 * mistaken for the registration's). Returns the panel and `open(player)`.
 */
function editPlayerForm(id, onSaved) {
  const form = h('form', { class: 'panel edit-player', novalidate: true, hidden: true });
  let player = null;
  let fields = null;
  const close = () => { form.hidden = true; replace(form); };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    try {
      const saved = await tournamentCall(id, `/players/${player.id}`, { method: 'PATCH', write: true,
        body: { name: fields.name.value.trim(), club: fields.club.value.trim() || null } });
      toast(t('tt.player_saved', { name: saved.name }));
      close();
      onSaved();
    } catch (error) {
      showErrors(form, error instanceof Problem ? error.errors : [], tournamentProblem(error));
    }
  });
  const open = (chosen) => {
    player = chosen;
    fields = playerFields('tt-edit');
    fields.name.value = player.name;
    fields.club.value = player.club ?? '';
    replace(form, h('h2', {}, t('tt.edit_player', { name: player.name })), fields.el,
      h('div', { class: 'row' },
        h('button', { type: 'submit', class: 'primary' }, t('tt.edit_save')),
        h('button', { type: 'button', onclick: close }, t('edit.cancel'))));
    form.hidden = false;
    fields.name.focus();
  };
  return { form, open };
}

export async function dashboardScreen(root, id) {
  let tournament;
  let standings;
  const load = async () => { [tournament, standings] = await Promise.all([loadTournament(id), loadStandings(id)]); };
  try { await load(); } catch (error) { return tournamentError(root, error); }
  const organiser = !!organiserToken(id);
  const head = h('div');
  const round = h('section', { class: 'panel round-panel' });
  const players = h('section', { class: 'panel players-panel' });
  const table = h('section', { class: 'panel' });
  const earlier = h('div');
  const clockPanel = h('section', { class: 'panel clock-panel' });
  const face = clockFace();
  const stoppedHint = h('p', { class: 'hint' }, t('ci.clock_stopped'));
  let controls = null;
  const checkIn = h('div');
  const clubs = h('datalist', { id: 'tt-clubs' });
  const editing = editPlayerForm(id, () => act(async () => {}, players));
  const over = () => tournament.status === 'finished';

  // Every read after an action or a live change goes through one queue: a slow answer never
  // overwrites a newer one.
  const refresh = oneAtATime(async () => {
    await load();
    draw();
  });

  async function act(work, panel) {
    clearErrors(panel);
    try {
      await work();
      await refresh();
    } catch (error) {
      showErrors(panel, error instanceof Problem ? error.errors : [], tournamentProblem(error));
    }
  }

  const confirm = (r, tbl) => act(() => tournamentCall(id, `/rounds/${r.number}/tables/${tbl.table}/confirm`,
    { method: 'POST', write: true }), round);

  function drawRound() {
    const names = playerNames(tournament);
    const current = tournament.round_list.at(-1);
    const base = tournamentRoute(id);
    replace(round, h('h2', { id: 'round-line' }, roundLine(tournament)),
      organiser && canStartRound(tournament) && h('button', { type: 'button', class: 'primary start-round',
        onclick: (event) => {
          const button = event.target;
          button.disabled = true;
          act(() => tournamentCall(id, '/rounds', { method: 'POST', write: true }), round)
            .finally(() => { button.disabled = false; });
        } }, t('tt.start_round', { n: tournament.round_list.length + 1 })),
      current && h('ul', { class: 'tables' },
        current.tables.map((tbl) => tableCard(tournament, current, tbl, names, organiser, confirm))),
      current && planQuality(current.report.plan),
      current && h('div', { class: 'row wrap' },
        organiser && h('a', { class: 'button secondary', href: `${base}/r/${current.number}/cards` }, t('tt.cards')),
        h('a', { class: 'button secondary', href: `${base}/board` }, t('tt.board'))),
      current && h('div', { class: 'row wrap paper' },
        paperLink(tournament, organiser, current.number, 'scores', t('paper.score_sheets')),
        paperLink(tournament, organiser, current.number, 'seats', t('paper.seats'))));
    replace(earlier, tournament.round_list.slice(0, -1).reverse().map((r) => h('details', { class: 'panel' },
      h('summary', {}, t('tt.round_n', { n: r.number })),
      h('ul', { class: 'tables' }, r.tables.map((tbl) => tableCard(tournament, r, tbl, names, organiser, confirm))),
      r.report.repeats.length > 0 && h('p', { class: 'hint' }, t('tt.repeats', { n: r.report.repeats.length })))));
  }

  function drawClock() {
    const current = tournament.round_list.at(-1);
    const send = (body) => act(() => tournamentCall(id, '/clock', { method: 'POST', write: true, body }), clockPanel);
    face.update(tournament.clock, tournament.warn_minutes);
    controls ??= clockControls(send);
    controls.update(tournament.clock, current ? current.tables.map((x) => x.table) : []);
    stoppedHint.hidden = tournament.clock.state !== 'stopped';
    if (!clockPanel.firstChild) {
      replace(clockPanel, h('h2', {}, t('ci.clock')), face.el, stoppedHint, organiser && controls.el);
    }
    if (controls.el.isConnected) controls.el.hidden = tournament.status === 'finished';
  }

  function drawCheckIn() {
    const open = organiser && checkInOpen(tournament);
    if (!open) {
      replace(checkIn);
      return;
    }
    const link = checkInLink(tournament);
    replace(checkIn, h('section', { class: 'panel check-in-panel', id: 'check-in-panel' },
      h('h2', {}, t('ci.qr_title')), h('p', { class: 'hint' }, t('ci.qr_hint')),
      qrCode(link, t('share.qr_of', { what: t('ci.qr_title') })),
      h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('ci.qr_title'), class: 'link', id: 'check-in-link' })));
  }

  function drawPlayers() {
    const base = tournamentRoute(id);
    const toggle = (player) => act(() => tournamentCall(id, `/players/${player.id}`,
      { method: 'PATCH', write: true, body: { active: !player.active } }), players);
    const pay = (player, paid) => act(() => tournamentCall(id, `/players/${player.id}`,
      { method: 'PATCH', write: true, body: { paid } }), players);
    const paidCount = tournament.players.filter((p) => p.paid).length;
    replace(players, h('h2', {}, t('tt.players', { n: tournament.players.filter((p) => p.active).length })),
      organiser && tournament.players.length > 0 && h('p', { class: 'paid-count', id: 'paid-count' },
        t('ci.paid_count', { paid: paidCount, n: tournament.players.length })),
      tournament.players.length === 0 ? h('p', { class: 'hint' }, t('tt.no_players'))
        : h('ul', { class: 'recent player-list' }, tournament.players.map((p) => h('li', {
          'data-player': p.id, class: p.active ? null : 'inactive' },
        h('a', { class: 'recent-match', href: `${base}/p/${p.id}` }, h('strong', {}, p.name),
          h('span', { class: 'note' }, [p.club, !p.active && t('tt.dropped_out')].filter(Boolean).join(' · '))),
        organiser && h('label', { class: 'paid-box' }, h('input', { type: 'checkbox', checked: p.paid,
          'data-paid': p.id, 'aria-label': t('ci.paid_name', { name: p.name }),
          onchange: (event) => pay(p, event.target.checked) }), t('ci.paid')),
        organiser && h('button', { type: 'button', class: 'icon edit-player-button',
          'aria-label': t('tt.edit_player', { name: p.name }), onclick: () => editing.open(p) }, '✎'),
        organiser && !over() && h('button', { type: 'button', class: 'secondary',
          'aria-label': t(p.active ? 'tt.drop_out_name' : 'tt.come_back_name', { name: p.name }),
          // Dropping out asks first (a second tap on the same button); coming back does not.
          onclick: (event) => {
            const button = event.currentTarget;
            if (p.active && !('armed' in button.dataset)) {
              button.dataset.armed = '';
              button.textContent = t('tidy.drop_confirm', { name: p.name });
              button.setAttribute('aria-label', t('tidy.drop_confirm', { name: p.name }));
              return;
            }
            toggle(p);
          } }, t(p.active ? 'tt.drop_out' : 'tt.come_back'))))));
    fillClubs(clubs, tournament);
  }

  function draw() {
    // Once the last round is complete nobody registers or drops out any more.
    if (register) register.hidden = over();
    replace(head, tournamentHeader(tournament, 'overview'));
    drawRound();
    drawClock();
    drawCheckIn();
    drawPlayers();
    replace(table, h('h2', {}, t('standings.title')), standingsTable(tournament, standings));
  }

  const register = organiser && registerForm(id, () => act(async () => {}, players));
  const view = tournament.private && recentTournaments().find((x) => x.id === id)?.view;
  const link = `${location.origin}${location.pathname}${tournamentRoute(id)}${view ? `?v=${encodeURIComponent(view)}` : ''}`;
  const code = qrCode(link, t('share.qr_of', { what: t('tt.link') }));
  replace(root, head, checkIn, round, clockPanel, register, players,
    organiser && editing.form, clubs, table,
    earlier, exportsPanel(tournament, organiser),
    h('details', { class: 'panel' }, h('summary', {}, t('tt.link')), h('p', { class: 'hint' }, t('tt.link_hint')),
      unreachableLinks(), code, h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('tt.link'), class: 'link' })));
  draw();
  const stop = followTournament(tournament, { version: () => tournament.version,
    refresh: () => act(async () => {}, round) });
  return () => { stop(); face.stop(); };
}
