// New tournament: name, game, the game's match options (the new-match screen's option form), rounds,
// preferred table size, seating mode, tournament points (share, or points per place for each
// table size the seating may use) and whether standings stay hidden until a round is complete.
// The organiser token the API returns is kept on this device. From a club (#/c/<id>/t/new) the
// tournament is the club's: created with the club token, its players then added as club members.
// Decisions: team options (`seat_groups`) are not offered, since tables of a tournament differ in
// size and seating; per-place tables are asked for the preferred size and its neighbours within
// the game's range (the sizes the planner uses), prefilled with places − 1 … 0.
import { Problem, authHeaders, call, games } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { clearErrors, showErrors } from '../form.js';
import { choice } from '../games/controls.js';
import { gameName } from '../match-view.js';
import { go } from '../router.js';
import { clubTokens, rememberTournament } from '../store.js';
import { clubError, clubRoute, loadClub } from '../clubs/common.js';
import { optionFields, optionsToSend } from '../screens/new-match.js';
import { tournamentError, tournamentProblem, tournamentRoute } from './common.js';

const SEATING = ['mix', 'swiss', 'random'];
const DEFAULT_TABLE = 4;
const DEFAULT_ROUNDS = 3;

const tableGame = (g) => ({ ...g, options: g.options.filter((spec) => spec.kind !== 'seat_groups') });
const smallest = (g) => Math.max(2, g.min_players);

function sizesNear(g, size) {
  const sizes = [];
  for (let s = Math.max(smallest(g), size - 1); s <= Math.min(g.max_players, size + 1); s += 1) sizes.push(s);
  return sizes;
}

const linear = (size) => Array.from({ length: size }, (_, place) => size - 1 - place).join(', ');

function parsePlaces(text) {
  const values = text.split(/[\s,;/]+/).filter(Boolean).map(Number);
  return values.some(Number.isNaN) ? text : values;
}

export async function newTournamentScreen(root, clubId = null) {
  let list;
  let club = null;
  try {
    if (clubId) club = (await loadClub(clubId)).club;
  } catch (error) { return clubError(root, error); }
  try { list = await games(); } catch (error) { return tournamentError(root, error); }
  // As on the new-match screen: a game without an end of its own (the score pad) comes last.
  list = [...list.filter((g) => !g.finish), ...list.filter((g) => g.finish)];
  const state = {
    name: '', game: list[0].id, rounds: DEFAULT_ROUNDS, table_size: DEFAULT_TABLE, seating: 'mix',
    points: 'share', perPlace: {}, hide_standings: false, private: false, options: {},
    check_in: false, late_check_in: false, warn_minutes: 5,
  };
  const current = () => tableGame(list.find((g) => g.id === state.game));
  const form = h('form', { class: 'panel new-match new-tournament', novalidate: true });

  function clampSize() {
    const g = current();
    state.table_size = Math.max(smallest(g), Math.min(g.max_players, state.table_size));
  }

  function number(id, path, label, value, min, max, onValue, hint) {
    return h('div', { class: 'field', 'data-path': path }, h('label', { for: id }, label),
      h('input', { id, type: 'number', inputmode: 'numeric', min, max, value: String(value),
        onchange: (e) => onValue(Number(e.target.value)) }),
      hint && h('p', { class: 'hint' }, hint));
  }

  function pointsFields() {
    const picker = choice({ label: t('tt.points_mode'), path: 'points', selected: state.points,
      options: ['share', 'per_place'].map((value) => ({ value, label: t(`tt.points.${value}`) })),
      onSelect: (value) => { state.points = value; draw(); } });
    const explain = h('p', { class: 'hint' }, t(`tt.points.${state.points}_hint`));
    if (state.points === 'share') return [picker, explain];
    return [picker, explain, sizesNear(current(), state.table_size).map((size) => {
      const id = `tt-places-${size}`;
      state.perPlace[size] ??= linear(size);
      return h('div', { class: 'field', 'data-path': `points.per_place.${size}` },
        h('label', { for: id }, t('tt.places_for', { n: size })),
        h('input', { id, type: 'text', inputmode: 'decimal', value: state.perPlace[size],
          oninput: (e) => { state.perPlace[size] = e.target.value; } }));
    })];
  }

  function check(key, label, hint) {
    return h('div', { class: 'field check', 'data-path': key }, h('label', {},
      h('input', { type: 'checkbox', checked: state[key], onchange: (e) => { state[key] = e.target.checked; } }),
      label), h('p', { class: 'hint' }, hint));
  }

  function draw() {
    const g = current();
    replace(form, h('h1', {}, t('tt.new_title')),
      club && h('p', { class: 'hint club-of' }, t('club.tournament_for', { club: club.name }), ' ',
        h('a', { href: clubRoute(club.id) }, t('club.back'))),
      h('div', { class: 'field', 'data-path': 'name' }, h('label', { for: 'tt-name' }, t('tt.name')),
        h('input', { id: 'tt-name', type: 'text', value: state.name, maxlength: 100, autocomplete: 'off',
          oninput: (e) => { state.name = e.target.value; } })),
      choice({ label: t('new.game'), path: 'game', selected: state.game,
        options: list.map((x) => ({ value: x.id, label: gameName(x.id),
          note: t('new.players_range', { min: smallest(x), max: x.max_players }) })),
        onSelect: (value) => { state.game = value; state.options = {}; state.perPlace = {}; clampSize(); draw(); } }),
      number('tt-rounds', 'rounds', t('tt.rounds'), state.rounds, 1, 50, (v) => { state.rounds = v; }),
      number('tt-table-size', 'table_size', t('tt.table_size'), state.table_size, smallest(g), g.max_players,
        (v) => { state.table_size = v; state.perPlace = {}; draw(); }, t('tt.table_size_hint')),
      choice({ label: t('tt.seating'), path: 'seating', selected: state.seating,
        options: SEATING.map((value) => ({ value, label: t(`tt.seating.${value}`) })),
        onSelect: (value) => { state.seating = value; draw(); } }),
      h('p', { class: 'hint' }, t(`tt.seating.${state.seating}_hint`)),
      pointsFields(),
      check('hide_standings', t('tt.hide_standings'), t('tt.hide_standings_hint')),
      check('private', t('tt.private'), t('tt.private_hint')),
      check('check_in', t('ci.check_in'), t('ci.check_in_hint')),
      check('late_check_in', t('ci.late_check_in'), t('ci.late_check_in_hint')),
      number('tt-warn', 'warn_minutes', t('ci.warn_minutes'), state.warn_minutes, 0, 600,
        (v) => { state.warn_minutes = v; }, t('ci.warn_minutes_hint')),
      optionFields({ game: g, options: state.options, players: Array(state.table_size).fill(''), redraw: draw }),
      h('button', { type: 'submit', class: 'primary' }, t('tt.create')));
  }

  function body() {
    const g = current();
    const points = state.points === 'share' ? 'share' : { per_place: Object.fromEntries(
      sizesNear(g, state.table_size).map((size) => [String(size), parsePlaces(state.perPlace[size])])) };
    return { name: state.name.trim(), game: state.game, rounds: state.rounds, table_size: state.table_size,
      seating: state.seating, points, hide_standings: state.hide_standings, private: state.private,
      check_in: state.check_in, late_check_in: state.late_check_in, warn_minutes: state.warn_minutes,
      options: optionsToSend(g, state.options, state.table_size), ...(club ? { club: club.id } : {}) };
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    try {
      const made = await call('/tournaments', { method: 'POST', body: body(),
        headers: club ? authHeaders(clubTokens(club.id).token) : {} });
      rememberTournament(made, { token: made.token, view: made.view_token, club: club?.id });
      go(tournamentRoute(made.id));
    } catch (error) {
      submit.disabled = false;
      showErrors(form, error instanceof Problem ? error.errors : [], tournamentProblem(error));
    }
  });
  draw();
  replace(root, form);
  return undefined;
}
