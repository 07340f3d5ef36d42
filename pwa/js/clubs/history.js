// The club's history, latest evening first: matches and tournaments, filtered by game, member and
// dates (from and to are whole days on this phone's calendar, compared with when each was played),
// a page at a time; each entry shows its evening (the date in the club's time zone, as the API
// says it) and where it was played, and opens the usual match or tournament view.
import { h, replace } from '../dom.js';
import { day, t } from '../i18n.js';
import { gameName } from '../match-view.js';
import { history } from './api.js';
import { byPlayed, clubError, clubHeader, entryLink, followClub, loadClub } from './common.js';

const PAGE = 20;

/** The start of a calendar day typed in a date field, as an instant (RFC 3339), days later. */
function dayStart(value, days = 0) {
  if (!value) return null;
  const [year, month, day] = value.split('-').map(Number);
  return new Date(year, month - 1, day + days).toISOString();
}

function seatText(seat) {
  const place = seat.rank == null ? '' : ` (${t('rank.ordinal', { n: seat.rank })})`;
  return `${seat.won ? '★ ' : ''}${seat.name}${place}`;
}

export function historyEntry(clubId, entry) {
  const status = entry.status === 'finished' ? t('club.finished_no', { n: entry.finish ?? '' }) : t(`club.status.${entry.status}`);
  const winners = entry.players.filter((seat) => seat.won).map((seat) => seat.name);
  return h('li', { 'data-entry': entry.id, 'data-kind': entry.kind },
    entryLink(clubId, entry,
      h('strong', {}, entry.kind === 'tournament' ? `${entry.name} · ${gameName(entry.game)}` : gameName(entry.game)),
      h('span', {}, entry.players.map(seatText).join(', ')),
      h('span', { class: 'note' }, entry.evening && h('time', { datetime: entry.evening, class: 'evening' }, day(entry.evening)),
        [entry.location, status].filter(Boolean).map((part) => ` · ${part}`).join('')),
      winners.length > 0 && h('span', { class: 'sr-only' }, t('club.won_by', { names: winners }))));
}

export async function historyScreen(root, id) {
  let view;
  try { view = await loadClub(id); } catch (error) { return clubError(root, error); }
  const { club } = view;
  const filters = { game: '', player: '', from: '', to: '' };
  const list = h('ul', { class: 'recent club-history', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true });
  let offset = 0;
  let asked = 0;

  // Only the answer to the latest question is shown: a filter changed while the first page was
  // still on its way must not be overwritten by that older, unfiltered page.
  async function load(reset) {
    if (reset) offset = 0;
    const mine = ++asked;
    let page;
    try {
      page = await history(id, { game: filters.game, player: filters.player, since: dayStart(filters.from),
        until: dayStart(filters.to, 1), limit: PAGE, offset });
    } catch (error) { return mine === asked ? clubError(root, error) : undefined; }
    if (mine !== asked) return undefined;
    const items = page.entries.map((entry) => historyEntry(id, entry));
    if (reset) replace(list, items.length ? items : h('li', { class: 'hint' }, t('club.no_history')));
    else list.append(...items);
    offset = page.next_offset ?? offset;
    more.hidden = page.next_offset == null;
    return undefined;
  }

  const field = (key, label, control) => h('div', { class: 'field' }, h('label', { for: `filter-${key}` }, label), control);
  const onChange = (key) => (event) => { filters[key] = event.target.value; load(true); };
  const form = h('form', { class: 'filters', onsubmit: (event) => event.preventDefault() },
    field('game', t('new.game'), h('select', { id: 'filter-game', onchange: onChange('game') },
      h('option', { value: '' }, t('club.all_games')),
      club.games.map((g) => h('option', { value: g }, gameName(g))))),
    field('player', t('club.member'), h('select', { id: 'filter-player', onchange: onChange('player') },
      h('option', { value: '' }, t('club.all_members')),
      byPlayed(club.players).map((m) => h('option', { value: m.id }, m.name)))),
    h('div', { class: 'row' },
      field('from', t('club.from'), h('input', { id: 'filter-from', type: 'date', onchange: onChange('from') })),
      field('to', t('club.to'), h('input', { id: 'filter-to', type: 'date', onchange: onChange('to') }))));
  more.textContent = t('club.more');
  more.addEventListener('click', () => load(false));
  let head = clubHeader(view, 'history');
  replace(root, head, h('section', { class: 'panel' }, h('h2', {}, t('club.history')), form, list, more));
  await load(true);
  return followClub(id, () => view.club.version, async () => {
    // A failed read keeps the screen as it is: the next change, or the next visit, reads again.
    try { view = await loadClub(id); } catch { return; }
    const next = clubHeader(view, 'history');
    head.replaceWith(next);
    head = next;
    await load(true);
  });
}
