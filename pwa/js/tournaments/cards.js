// Table cards (#/t/<id>/r/<n>/cards): a printable page with one card per table: table number,
// the players in seat order and a QR code of the table link (the match with its table token).
// Only the organiser holds the tokens (GET …/rounds/<n>/tokens). The print CSS drops the app's
// chrome and keeps every card whole on its page.
import { Problem } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { qrCode, unreachableLinks } from '../address.js';
import { organiserToken } from '../store.js';
import {
  loadTournament, playerNames, tableLink, tournamentCall, tournamentError, tournamentRoute,
} from './common.js';

function card(tournament, number, table, names) {
  const link = tableLink(tournament, number, table);
  const code = qrCode(link, t('tt.qr_table', { n: table.table }));
  return h('article', { class: 'table-card', 'data-table': table.table },
    h('p', { class: 'card-title' }, h('strong', {}, t('tt.table_n', { n: table.table })),
      h('span', {}, ` · ${t('tt.round_n', { n: number })} · ${tournament.name}`)),
    h('ol', { class: 'seats' }, table.players.map((pid) => h('li', {}, names.get(pid) ?? `#${pid}`))),
    code,
    h('p', { class: 'hint' }, t('tt.card_hint')),
    h('a', { class: 'table-link', href: link }, link));
}

export async function cardsScreen(root, id, number) {
  if (!organiserToken(id)) return tournamentError(root, new Problem(403, null));
  let tournament;
  let tokens;
  try {
    [tournament, tokens] = await Promise.all([loadTournament(id),
      tournamentCall(id, `/rounds/${number}/tokens`, { write: true })]);
  } catch (error) {
    return tournamentError(root, error);
  }
  const names = playerNames(tournament);
  replace(root,
    h('div', { class: 'no-print panel row wrap' },
      h('a', { class: 'button secondary', href: tournamentRoute(id) }, t('tt.to_tournament')),
      h('button', { type: 'button', class: 'primary', onclick: () => print() }, t('tt.print'))),
    h('h1', { class: 'no-print' }, t('tt.cards_title', { n: tokens.number })),
    h('div', { class: 'no-print' }, unreachableLinks()),
    h('div', { class: 'table-cards' }, tokens.tables.map((table) => card(tournament, tokens.number, table, names))));
  return undefined;
}
