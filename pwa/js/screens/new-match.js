// New match: the game, the players in seating order (names remembered on this device; ↑/↓ move
// a player), and the game's options with their defaults and one line explaining each (labels,
// help and choice names as GET /games says them in the app's language). Options
// whose `available` condition fails for the current players or options are hidden and not sent.
// Decision: only options the user changed from the shown default are sent, so the API fills the
// rest (defaults that depend on the players stay right when the player count changes).
// A game without an end of its own (the score pad: `finish` in /games) is offered last, after the
// games Tafelrunde knows; for a club the pads it has played (GET /clubs/{id}/pads, last played
// first) are offered before every game. A pad whose last match's members are all still members
// is one tap: its button names them in their seats ("Jass — Ann, Bea, Cem, Dan", by teams when
// it has teams) and starts the match at once, with the pad's title and options, played now, for
// the club's stakes for that pad. Its ✎ button takes the same into the form instead, to change
// players, options, place or stakes before Start. A pad with a seat whose member was removed or
// forgotten since (null in `last_players`) has only the form's button: the seat is left empty to
// pick someone for, the others keeping their seats (teams are by seat). A pads answer without
// `last_players` (kept offline from an older server): as many empty seats as its last match had.
// Decisions: a one-tap start keeps what was typed under "when and where" (the place of the
// evening) and sends no other choice of the form; a failed start (offline, a refusal) leaves the
// pad in the form with the problem at its field. The stakes shown are the club's default for the
// game's key in the club (`score-pad:<title>`, api.md), else for the game: a pad picked or a
// rematch shows that; a title typed by hand into the form is not looked up while typing (the
// server applies the club's default for it when the form sends no stakes).
import { Problem, authHeaders, call, games } from '../api.js';
import { h, replace } from '../dom.js';
import { has, t } from '../i18n.js';
import { money } from '../money.js';
import { showErrors } from '../form.js';
import { go } from '../router.js';
import { clubTokens, rememberMatch, rememberNames, rememberPlace, rememberedNames, rememberedPlaces, storeTokens,
  tokensFor } from '../store.js';
import { errorScreen, gameName, problemText } from '../match-view.js';
import { RANKS, facesOf, rankName } from '../games/tschau-sepp.js';
import { isMember, memberPicker } from '../clubs/pick.js';
import { clubError, clubRoute, loadClub } from '../clubs/common.js';
import { clubPads } from '../clubs/api.js';

const REMATCH_KEY = 'tafelrunde.rematch';

/**
 * The next match with the same game, players, options, place and stakes, for the same club if it
 * was a club's.
 */
export function prepareRematch(match) {
  sessionStorage.setItem(REMATCH_KEY, JSON.stringify({
    game: match.game, players: match.players.map((p) => p.name), options: match.options,
    club: tokensFor(match.id).club || null, location: match.location, stakes: match.stakes || null,
  }));
}

/** Now on this phone's clock as a datetime-local value ("2026-12-04T20:30"). */
function localNow() {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

/**
 * `played_at` for a sheet of an earlier evening: the datetime-local value read on this phone's
 * clock, sent as an instant (RFC 3339, UTC); nothing when it was played now (the server's now).
 * An empty or unreadable field is sent as typed, for the API to name at `played_at`.
 */
export function playedAtToSend(value) {
  if (value === null) return {};
  const moment = new Date(value);
  return { played_at: Number.isNaN(moment.getTime()) ? value : moment.toISOString() };
}

/** `available` strings like "players == 3" or "table == custom and players >= 4". */
export function isAvailable(rule, context) {
  if (!rule) return true;
  return rule.split(/\s+and\s+/).every((part) => {
    const m = /^\s*(\w+)\s*(==|!=|>=|<=|>|<)\s*['"]?([\w-]+)['"]?\s*$/.exec(part);
    if (!m) return true;
    const [, name, op, raw] = m;
    const actual = context[name];
    if (actual === undefined) return true;
    const wanted = typeof actual === 'number' ? Number(raw) : raw;
    return { '==': actual === wanted, '!=': actual !== wanted, '>=': actual >= wanted,
      '<=': actual <= wanted, '>': actual > wanted, '<': actual < wanted }[op];
  });
}

/** Equal teams seated alternately: k teams → seat s plays in team s mod k. */
function teamLayouts(players) {
  const layouts = [];
  for (let k = 2; k <= players / 2; k += 1) {
    if (players % k === 0) {
      layouts.push(Array.from({ length: k }, (_, team) =>
        Array.from({ length: players / k }, (_, i) => team + i * k)));
    }
  }
  return layouts;
}

/** "Ann & Cid · Ben & Dan": a team layout named by the players typed so far. */
const teamsLabel = (teams, players) => teams.map((team) => team
  .map((s) => players[s] || t('new.player_n', { n: s + 1 })).join(' & ')).join(' · ');

function optionField(spec, form) {
  const { game: g, options, players, redraw } = form;
  const path = `options.${spec.name}`;
  const id = `opt-${spec.name}`;
  const { label } = spec;
  const explain = h('p', { class: 'hint', id: `${id}-hint` }, spec.description,
    spec.default_rule && ` ${t('new.default_rule', { rule: spec.default_rule })}`);
  const value = options[spec.name] ?? spec.default;
  const set = (v) => { options[spec.name] = v; redraw(); };
  let control;
  if (spec.kind === 'text') {
    // Typed into without a redraw (which would take the focus away); the API trims and checks it.
    control = h('input', { id, type: 'text', value: value ?? '', maxlength: spec.maximum, autocomplete: 'off',
      'aria-describedby': `${id}-hint`, required: spec.default == null,
      oninput: (e) => { options[spec.name] = e.target.value; } });
    return h('div', { class: 'field', 'data-path': path }, h('label', { for: id }, label), control, explain);
  }
  if (spec.kind === 'bool') {
    control = h('input', { id, type: 'checkbox', checked: !!value, 'aria-describedby': `${id}-hint`,
      onchange: (e) => set(e.target.checked) });
    return h('div', { class: 'field check', 'data-path': path }, h('label', { for: id }, control, label), explain);
  }
  if (spec.kind === 'choice') {
    control = h('select', { id, 'aria-describedby': `${id}-hint`, onchange: (e) => set(e.target.value) },
      spec.default == null && h('option', { value: '' }, '—'),
      (spec.choices || []).map((c) => h('option', { value: c, selected: c === value },
        spec.choice_labels?.[c] ?? c)));
  } else if (spec.kind === 'int') {
    control = h('input', { id, type: 'number', inputmode: 'numeric', min: spec.minimum, max: spec.maximum,
      value: value == null ? '' : String(value), placeholder: spec.default_rule ? t('new.automatic') : '',
      'aria-describedby': `${id}-hint`,
      onchange: (e) => { options[spec.name] = e.target.value === '' ? null : Number(e.target.value); } });
  } else if (spec.kind === 'seat_groups') {
    const layouts = teamLayouts(players.length);
    const chosen = JSON.stringify(value || []);
    control = h('select', { id, 'aria-describedby': `${id}-hint`,
      onchange: (e) => set(JSON.parse(e.target.value)) },
    h('option', { value: '[]' }, t('new.no_teams')),
    layouts.map((teams) => h('option', { value: JSON.stringify(teams), 'data-teams': true,
      selected: JSON.stringify(teams) === chosen }, teamsLabel(teams, players))));
  } else if (spec.kind === 'choices') {
    const picked = new Set(value || []);
    control = h('div', { class: 'choice', role: 'group', 'aria-label': label }, (spec.choices || []).map((c) =>
      h('button', { type: 'button', 'aria-pressed': String(picked.has(c)), onclick: () => {
        if (picked.has(c)) picked.delete(c); else picked.add(c);
        set([...picked]);
      } }, spec.choice_labels?.[c] ?? (has(`sc.suit.${c}`) ? t(`sc.suit.${c}`) : c))));
    return h('div', { class: 'field', 'data-path': path }, h('span', { class: 'label' }, label), control, explain);
  } else if (spec.kind === 'values_by_rank') {
    const values = { ...(value || {}) };
    control = h('div', { class: 'ranks' }, RANKS.map((rank) => h('label', {},
      h('span', {}, rankName(rank, facesOf(options))),
      h('input', { type: 'number', inputmode: 'numeric', min: 0, value: values[rank] ?? '',
        onchange: (e) => { values[rank] = Number(e.target.value); options[spec.name] = { ...values }; } }))));
    return h('div', { class: 'field', 'data-path': path }, h('span', { class: 'label' }, label), control, explain);
  }
  return h('div', { class: 'field', 'data-path': path }, h('label', { for: id }, label), control, explain);
}

function optionContext(g, options, playerCount) {
  const context = { players: playerCount };
  for (const spec of g.options) context[spec.name] = options[spec.name] ?? spec.default;
  return context;
}

/**
 * The options of game `g` with defaults and explanations; `players` are the names in seat order
 * (team layouts name them). Edits land in `options`; `redraw` is called when the shown set may change.
 */
export function optionFields(form) {
  const context = optionContext(form.game, form.options, form.players.length);
  const shown = form.game.options.filter((spec) => isAvailable(spec.available, context));
  return shown.length > 0 && h('fieldset', { class: 'field' }, h('legend', {}, t('new.options')),
    shown.map((spec) => optionField(spec, form)));
}

/** Only the options changed from their shown default, and only those available. */
export function optionsToSend(g, options, playerCount) {
  const context = optionContext(g, options, playerCount);
  const out = {};
  for (const spec of g.options) {
    const value = options[spec.name];
    if (value == null || value === '' || !isAvailable(spec.available, context)) continue;
    if (JSON.stringify(value) === JSON.stringify(spec.default)) continue;
    if (spec.kind === 'seat_groups' && value.length === 0) continue;
    out[spec.name] = value;
  }
  return out;
}

/**
 * The keys a club's default stakes for a match are looked up by, the server's order: the game's
 * key in the club (a score pad's title makes `score-pad:<title>`, api.md), then the game's id.
 */
function stakesKeys(gameId, options) {
  const title = typeof options?.title === 'string' ? options.title.trim() : '';
  return title ? [`${gameId}:${title}`, gameId] : [gameId];
}

const NO_STAKES = { currency: 'CHF', per_point: '0.05', to: 'players', per_match_lost: '0.00' };

/**
 * What a new match of `gameId` with `options` is played for, as the form starts: the club's
 * default for its game (stakesKeys), shown and switched on (a club match without stakes is played
 * for it anyway); else off, with five Rappen a point filled in for whoever switches it on.
 */
export function initialStakes(club, gameId, options = {}) {
  const preset = stakesKeys(gameId, options).map((key) => club?.stakes?.[key]).find(Boolean);
  return { on: !!preset, preset: preset || null, ...(preset || NO_STAKES) };
}

/**
 * The stakes to send: the fields as typed (the API checks them, 422 at `stakes.per_point` ...),
 * nothing when off; switched off against a club's default, stakes of nothing, so that the
 * match is not played for the club's.
 */
export function stakesToSend(stakes) {
  if (stakes.on) {
    const { currency, per_point: perPoint, to, per_match_lost: lost } = stakes;
    return { stakes: { currency, per_point: perPoint.trim(), to, per_match_lost: lost.trim() || '0' } };
  }
  return stakes.preset ? { stakes: { currency: stakes.preset.currency, per_point: '0', per_match_lost: '0' } } : {};
}

/** The stakes fieldset: a switch, then currency, per point, to whom and the fee for a lost match. */
function stakesFields(stakes, redraw) {
  const bind = (key) => (event) => { stakes[key] = event.target.value; };
  const field = (key, label, control) => h('div', { class: 'field', 'data-path': `stakes.${key}` },
    h('label', { for: `stakes-${key}` }, label), control);
  const amount = (key) => h('input', { id: `stakes-${key}`, type: 'text', inputmode: 'decimal', value: stakes[key],
    autocomplete: 'off', oninput: bind(key) });
  return h('fieldset', { class: 'field stakes', 'data-path': 'stakes' }, h('legend', {}, t('kasse.stakes')),
    h('div', { class: 'field check' }, h('label', {}, h('input', { id: 'stakes-on', type: 'checkbox', checked: stakes.on,
      'aria-describedby': 'stakes-hint', onchange: (e) => { stakes.on = e.target.checked; redraw(); } }),
    t('kasse.for_money')),
    h('p', { class: 'hint', id: 'stakes-hint' }, stakes.preset
      ? t('kasse.club_default', { amount: money(stakes.preset.currency, stakes.preset.per_point) })
      : t('kasse.stakes_hint'))),
    stakes.on && h('div', { class: 'row' },
      field('currency', t('kasse.currency'), h('select', { id: 'stakes-currency', onchange: bind('currency') },
        ['CHF', 'EUR'].map((c) => h('option', { value: c, selected: c === stakes.currency }, c)))),
      field('per_point', t('kasse.per_point'), amount('per_point'))),
    stakes.on && field('to', t('kasse.to'), h('select', { id: 'stakes-to', onchange: bind('to') },
      ['players', 'pot'].map((to) => h('option', { value: to, selected: to === stakes.to }, t(`kasse.to.${to}`))))),
    stakes.on && field('per_match_lost', t('kasse.per_match_lost'), amount('per_match_lost')));
}

/**
 * With `clubId` the match is the club's: its members are offered as chips over the player fields,
 * it is started with the club token, and it is not offered as private (the club reads it anyway).
 */
export async function newMatchScreen(root, clubId = null) {
  const rematch = JSON.parse(sessionStorage.getItem(REMATCH_KEY) || 'null');
  sessionStorage.removeItem(REMATCH_KEY);
  const forClub = clubId || (rematch?.club && clubTokens(rematch.club).token ? rematch.club : null);
  let list;
  let club = null;
  try {
    if (forClub) club = (await loadClub(forClub)).club;
  } catch (error) { return clubError(root, error); }
  try { list = await games(); } catch (error) { return errorScreen(root, error); }
  list = [...list.filter((g) => !g.finish), ...list.filter((g) => g.finish)];
  // A club's pads are an offer: without them (an older server, no connection) the games remain.
  const pads = club ? await clubPads(club.id).catch(() => []) : [];
  const state = {
    game: rematch?.game || list[0].id,
    // A club's rematch keeps the seats of members (any spelling of theirs); a removed member's
    // seat, which the match names by a mark, is left empty to pick someone for.
    players: (club ? rematch?.players.map((name) => (isMember(club, name) ? name : '')) : rematch?.players)
      || ['', ''],
    options: rematch ? { ...rematch.options } : {},
    private: false,
    // Played now unless a sheet of an earlier evening is typed in: then the moment on this
    // phone's clock (a datetime-local value), sent with its offset.
    playedAt: null,
    location: rematch?.location || '',
  };
  // A rematch is played for what the last match was played for.
  state.stakes = rematch?.stakes ? { ...initialStakes(club, state.game, state.options), on: true, ...rematch.stakes }
    : initialStakes(club, state.game, state.options);
  const current = () => list.find((g) => g.id === state.game);
  const form = h('form', { class: 'panel new-match', novalidate: true });
  const known = club ? [...new Set([...club.players.map((m) => m.name), ...rememberedNames()])] : rememberedNames();
  const names = h('datalist', { id: 'known-names' }, known.map((n) => h('option', { value: n })));
  const places = h('datalist', { id: 'known-places' }, rememberedPlaces().map((p) => h('option', { value: p })));

  function whenAndWhere() {
    const earlier = state.playedAt !== null;
    return h('fieldset', { class: 'field when' }, h('legend', {}, t('new.played_at')),
      h('div', { class: 'field check' }, h('label', {}, h('input', { type: 'checkbox', checked: !earlier,
        'aria-describedby': 'played-now-hint', onchange: (e) => {
          state.playedAt = e.target.checked ? null : localNow();
          draw();
          if (!e.target.checked) form.querySelector('#played-at').focus();
        } }), t('new.played_now')), h('p', { class: 'hint', id: 'played-now-hint' }, t('new.played_now_hint'))),
      earlier && h('div', { class: 'field', 'data-path': 'played_at' },
        h('label', { for: 'played-at' }, t('new.played_at')),
        h('input', { id: 'played-at', type: 'datetime-local', value: state.playedAt, max: localNow(), required: true,
          oninput: (e) => { state.playedAt = e.target.value; } })),
      h('div', { class: 'field', 'data-path': 'location' }, h('label', { for: 'location' }, t('new.location')),
        h('input', { id: 'location', type: 'text', value: state.location, list: 'known-places', maxlength: 80,
          autocomplete: 'off', 'aria-describedby': 'location-hint', oninput: (e) => { state.location = e.target.value; } }),
        h('p', { class: 'hint', id: 'location-hint' }, t('new.location_hint'))));
  }

  /** The pad's game, title, options and the club's stakes for it in the form, its last players seated. */
  function takePad(pad) {
    state.game = pad.game;
    state.options = { ...pad.options };
    state.stakes = initialStakes(club, pad.game, pad.options);
    if (pad.last_players) state.players = pad.last_players.map((seated) => seated?.name ?? '');
    while (state.players.length < pad.players) state.players.push('');
    draw();
  }

  /** The names of a pad's last players when every one is still a member (a one-tap start), else null. */
  const seatedAgain = (pad) => (pad.last_players?.length && pad.last_players.every(Boolean)
    ? pad.last_players.map((seated) => seated.name) : null);

  function padPicker() {
    if (pads.length === 0) return null;
    const intoForm = (pad) => () => {
      takePad(pad);
      // The first seat left to fill, if any: else the table is seated and Start is one tap.
      const empty = [...form.querySelectorAll('[data-path="players"] input')].find((input) => !input.value);
      empty?.focus();
    };
    return h('fieldset', { class: 'field pads', 'data-path': 'pads' }, h('legend', {}, t('pad.club_pads')),
      pads.some(seatedAgain) && h('p', { class: 'hint' }, t('pad.start_hint')),
      pads.map((pad) => {
        const seated = seatedAgain(pad);
        const played = h('span', { class: 'note' }, t('pad.played', { n: pad.matches }));
        const chosen = String(state.game === pad.game && state.options.title === pad.title);
        if (!seated) {
          return h('div', { class: 'pad' }, h('button', { type: 'button', 'data-pad': pad.title, 'aria-pressed': chosen,
            onclick: intoForm(pad) }, pad.title, played));
        }
        const teams = pad.options.teams?.length ? pad.options.teams : null;
        return h('div', { class: 'pad' },
          h('button', { type: 'button', class: 'pad-start', 'data-pad': pad.title, onclick: () => {
            takePad(pad);
            create();
          } }, h('strong', {}, pad.title), ` — ${teams ? teamsLabel(teams, seated) : seated.join(', ')}`, played),
          h('button', { type: 'button', class: 'icon', 'data-pad-change': pad.title, 'aria-pressed': chosen,
            'aria-label': t('pad.change', { title: pad.title }), onclick: intoForm(pad) }, '✎'));
      }));
  }

  function gamePicker() {
    return h('fieldset', { class: 'field', 'data-path': 'game' }, h('legend', {}, t('new.game')),
      h('div', { class: 'choice games', role: 'radiogroup', 'aria-label': t('new.game') },
        list.map((g) => h('button', { type: 'button', role: 'radio', 'aria-checked': String(g.id === state.game),
          'data-value': g.id, onclick: () => {
            state.game = g.id;
            state.options = {};
            state.stakes = initialStakes(club, g.id, state.options);
            const { min_players: min, max_players: max } = g;
            while (state.players.length < min) state.players.push('');
            state.players = state.players.slice(0, Math.max(min, Math.min(max, state.players.length)));
            draw();
          } }, gameName(g.id), h('span', { class: 'note' }, g.finish ? t('pad.any_game')
          : t('new.players_range', { min: g.min_players, max: g.max_players }))))));
  }

  function playerList() {
    const g = current();
    const count = state.players.length;
    return h('fieldset', { class: 'field', 'data-path': 'players' }, h('legend', {}, t('new.players')),
      h('p', { class: 'hint' }, t('new.seating')),
      h('ol', { class: 'players' }, state.players.map((name, seat) => h('li', { 'data-path': `players[${seat}]` },
        h('input', { type: 'text', value: name, list: 'known-names', autocomplete: 'off', maxlength: 40,
          'aria-label': t('new.player_n', { n: seat + 1 }), enterkeyhint: 'next',
          // Enter goes on to the next name, never starts the match half typed.
          onkeydown: (e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            const names = [...form.querySelectorAll('.players input')];
            const next = names[names.indexOf(e.target) + 1];
            if (next) next.focus(); else e.target.blur();
          },
          oninput: (e) => {
            state.players[seat] = e.target.value;
            // Team layouts are named by the players: rename them in place, keeping the focus.
            for (const option of form.querySelectorAll('option[data-teams]')) {
              option.textContent = teamsLabel(JSON.parse(option.value), state.players);
            }
          } }),
        h('button', { type: 'button', class: 'icon', disabled: seat === 0,
          'aria-label': t('new.move_up', { n: seat + 1 }), onclick: () => move(seat, -1) }, '↑'),
        h('button', { type: 'button', class: 'icon', disabled: seat === count - 1,
          'aria-label': t('new.move_down', { n: seat + 1 }), onclick: () => move(seat, 1) }, '↓'),
        h('button', { type: 'button', class: 'icon', disabled: count <= g.min_players,
          'aria-label': t('new.remove', { n: seat + 1 }), onclick: () => {
            state.players.splice(seat, 1); draw();
          } }, '×')))),
      count < g.max_players && h('button', { type: 'button', class: 'secondary', onclick: () => {
        state.players.push('');
        draw();
        form.querySelector(`[data-path="players[${state.players.length - 1}]"] input`).focus();
      } }, t('new.add_player')));
  }

  function move(seat, by) {
    const [name] = state.players.splice(seat, 1);
    state.players.splice(seat + by, 0, name);
    draw();
  }

  /** Starts the match as the form holds it (Start, or a pad's one tap after it took the pad). */
  async function create(event) {
    event?.preventDefault();
    const players = state.players.map((n) => n.trim());
    // No second match from a second tap while the first is on its way.
    const starts = [...form.querySelectorAll('button[type=submit], button.pad-start')];
    for (const button of starts) button.disabled = true;
    try {
      const location = state.location.trim();
      const body = { game: state.game, players, options: optionsToSend(current(), state.options, players.length),
        private: state.private, ...playedAtToSend(state.playedAt), ...(location ? { location } : {}),
        ...stakesToSend(state.stakes) };
      const match = await call('/matches', { method: 'POST', body: club ? { ...body, club: club.id } : body,
        headers: club ? authHeaders(clubTokens(club.id).token) : {} });
      storeTokens(match.id, { token: match.token, view: match.view_token, club: club?.id });
      rememberNames(players);
      rememberPlace(match.location);
      rememberMatch(match);
      go(`#/m/${encodeURIComponent(match.id)}`);
    } catch (error) {
      for (const button of starts) button.disabled = false;
      showErrors(form, error instanceof Problem ? error.errors : [], problemText(error));
    }
  }

  function draw() {
    const g = current();
    replace(form, h('h1', {}, t('new.title')),
      club && h('p', { class: 'hint club-of' }, t('club.match_for', { club: club.name }), ' ',
        h('a', { href: clubRoute(club.id) }, t('club.back'))),
      padPicker(),
      gamePicker(),
      club && memberPicker(club.players, state.players, { min: g.min_players, max: g.max_players, redraw: draw }),
      playerList(),
      optionFields({ game: g, options: state.options, players: state.players, redraw: draw }),
      whenAndWhere(),
      stakesFields(state.stakes, draw),
      !club && h('div', { class: 'field check' }, h('label', {}, h('input', { type: 'checkbox', checked: state.private,
        onchange: (e) => { state.private = e.target.checked; } }), t('new.private')),
      h('p', { class: 'hint' }, t('new.private_hint'))),
      h('button', { type: 'submit', class: 'primary' }, t('new.start')), names, places);
  }

  form.addEventListener('submit', create);
  draw();
  replace(root, form);
  return undefined;
}
