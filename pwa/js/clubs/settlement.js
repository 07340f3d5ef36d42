// The club's Abrechnung: who pays whom over an evening (tonight unless other dates are chosen) or
// any period, per currency, as the API settles it: the fewest transfers between members in big
// type, what goes into the Kasse, and each member's pays, receives and net; as CSV, or printed
// on A4 (the print stylesheet leaves the tabs, the filters and the buttons out).
// Decision: an empty date field leaves the period open on that side, as the API reads it; both
// empty is tonight in the club's time zone.
import { csvLayout, download } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { day, t } from '../i18n.js';
import { problemText } from '../match-view.js';
import { isNegative, isZero, money } from '../money.js';
import { clubTokens } from '../store.js';
import { settlement } from './api.js';
import { clubError, clubHeader, followClub, loadClub } from './common.js';

/** "Bea → Ann CHF 0.25", the names looked up in `names` (member id → name). */
export function transferItem(names, currency, transfer) {
  return h('li', { class: 'transfer' }, h('span', {}, names.get(transfer.from) ?? transfer.from),
    h('span', { 'aria-hidden': 'true' }, ' → '), h('span', { class: 'sr-only' }, ` ${t('kasse.pays_to')} `),
    h('span', {}, names.get(transfer.to) ?? transfer.to), ' ', h('strong', {}, money(currency, transfer.amount)));
}

function periodTitle(answer) {
  if (answer.from && answer.from === answer.to) return t('kasse.evening_of', { date: day(answer.from) });
  if (answer.from && answer.to) return t('kasse.period', { from: day(answer.from), to: day(answer.to) });
  if (answer.from) return t('kasse.since', { from: day(answer.from) });
  if (answer.to) return t('kasse.until', { to: day(answer.to) });
  return t('kasse.all_time');
}

function currencyPanel(money_) {
  const names = new Map(money_.members.map((m) => [m.player, m.name]));
  const { currency } = money_;
  return h('section', { class: 'panel money', 'data-currency': currency },
    h('h3', {}, currency),
    money_.transfers.length > 0
      ? h('ul', { class: 'transfers' }, money_.transfers.map((transfer) => transferItem(names, currency, transfer)))
      : h('p', { class: 'hint' }, t('kasse.nobody_pays')),
    !isZero(money_.pot) && h('p', { class: 'pot' }, t('kasse.into_pot', { amount: money(currency, money_.pot) })),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, t('club.member')), h('th', { class: 'num' }, t('kasse.pays')),
      h('th', { class: 'num' }, t('kasse.receives')), h('th', { class: 'num' }, t('kasse.net')))),
    h('tbody', {}, money_.members.map((line) => h('tr', { 'data-player': line.player },
      h('td', {}, line.name), h('td', { class: 'num' }, line.pays), h('td', { class: 'num' }, line.receives),
      h('td', { class: `num${isNegative(line.net) ? ' owing' : ''}` }, line.net))))));
}

export async function settlementScreen(root, id) {
  let view;
  try { view = await loadClub(id); } catch (error) { return clubError(root, error); }
  const period = { from: '', to: '' };
  const body = h('div', { 'aria-live': 'polite' });
  const title = h('h2', {}, t('kasse.settlement'));
  let asked = 0;

  async function load() {
    const mine = ++asked;
    let answer;
    try { answer = await settlement(id, period.from, period.to); } catch (error) {
      if (mine === asked) replace(body, h('p', { role: 'alert' }, problemText(error)));
      return;
    }
    if (mine !== asked) return;
    title.textContent = `${t('kasse.settlement')}: ${periodTitle(answer)}`;
    replace(body, answer.currencies.length
      ? [h('p', { class: 'hint' }, t('kasse.matches_counted', { n: answer.matches })), answer.currencies.map(currencyPanel)]
      : h('p', { class: 'hint', id: 'no-money' }, t('kasse.no_money')));
  }

  const dateField = (key, label) => h('div', { class: 'field' }, h('label', { for: `settle-${key}` }, label),
    h('input', { id: `settle-${key}`, type: 'date', onchange: (event) => { period[key] = event.target.value; load(); } }));
  const { token, view: viewToken } = clubTokens(id);
  const csv = () => download(`/clubs/${encodeURIComponent(id)}/settlement?format=csv${csvLayout()}${
    period.from ? `&from=${period.from}` : ''}${period.to ? `&to=${period.to}` : ''}`,
  `club-${id}-settlement.csv`, token || viewToken).catch((error) => toast(problemText(error)));
  const filters = h('form', { class: 'filters no-print', onsubmit: (event) => event.preventDefault() },
    h('div', { class: 'row' }, dateField('from', t('club.from')), dateField('to', t('club.to'))),
    h('p', { class: 'hint' }, t('kasse.period_hint')),
    h('button', { type: 'button', class: 'secondary', onclick: () => {
      period.from = ''; period.to = '';
      for (const input of filters.querySelectorAll('input')) input.value = '';
      load();
    } }, t('kasse.tonight')));
  const actions = h('div', { class: 'choice no-print' },
    h('button', { type: 'button', class: 'secondary', onclick: csv }, t('kasse.csv')),
    h('button', { type: 'button', class: 'secondary', onclick: () => window.print() }, t('kasse.print')));
  let head = clubHeader(view, 'settlement');
  replace(root, head, h('section', { class: 'panel settlement' }, title, filters, body, actions));
  await load();
  return followClub(id, () => view.club.version, async () => {
    try { view = await loadClub(id); } catch { return; }
    const next = clubHeader(view, 'settlement');
    head.replaceWith(next);
    head = next;
    await load();
  });
}
