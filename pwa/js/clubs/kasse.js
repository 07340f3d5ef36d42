// The club's Kasse: the money in the pot per currency, what each member owes it in all, has paid
// and still owes, and every payment, newest first. On a member's phone a payment takes two taps:
// the member who owes (the amount still due is filled in) and "confirm"; any other payment, a
// payout from the pot (a negative amount) or the reversal of a wrong one goes through the form
// below. As CSV, or printed on A4.
// Decision: nothing is ever deleted; "reverse" fills the form with the opposite amount and a note
// naming the payment, to be confirmed like any other. The name of who records (the treasurer) is
// kept on this phone and sent with each payment.
import { Problem, csvLayout, download } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { showErrors } from '../form.js';
import { dateTime, t } from '../i18n.js';
import { problemText } from '../match-view.js';
import { isNegative, isZero, money } from '../money.js';
import { clubTokens } from '../store.js';
import { kasse, payments, recordPayment } from './api.js';
import { clubError, clubHeader, followClub, loadClub } from './common.js';

const RECORDER_KEY = 'tafelrunde.treasurer';
const CURRENCIES = ['CHF', 'EUR'];

/** The opposite of an amount string ("5.00" → "-5.00"): a sign, not a sum. */
const opposite = (amount) => (amount.startsWith('-') ? amount.slice(1) : `-${amount}`);

export async function kasseScreen(root, id) {
  let view;
  try { view = await loadClub(id); } catch (error) { return clubError(root, error); }
  const body = h('div', { 'aria-live': 'polite' });
  const list = h('ul', { class: 'recent payments' });
  const form = h('form', { class: 'panel pay-form no-print', novalidate: true });
  const state = { player: '', amount: '', currency: 'CHF', note: '', recorder: localStorage.getItem(RECORDER_KEY) || '' };

  async function send(payment, where) {
    if (state.recorder.trim()) localStorage.setItem(RECORDER_KEY, state.recorder.trim());
    try {
      const recorded = await recordPayment(id, { ...payment,
        ...(state.recorder.trim() ? { recorded_by: state.recorder.trim() } : {}) });
      toast(t('kasse.recorded', { name: recorded.name, amount: money(recorded.currency, recorded.amount) }));
      await load();
      return true;
    } catch (error) {
      showErrors(where, error instanceof Problem ? error.errors : [], problemText(error));
      return false;
    }
  }

  /** The second tap: the amount due filled in, a note, and confirm. */
  function confirmPanel(line, currency, row) {
    const amountId = `pay-${currency}-${line.player}`;
    const panel = h('form', { class: 'pay-confirm', novalidate: true, 'data-player': line.player });
    const amount = h('input', { id: amountId, type: 'text', inputmode: 'decimal', value: line.due, autocomplete: 'off' });
    const note = h('input', { id: `${amountId}-note`, type: 'text', maxlength: 200, autocomplete: 'off' });
    panel.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = panel.querySelector('button[type=submit]');
      button.disabled = true;
      if (!await send({ player: line.player, amount: amount.value.trim(), currency, note: note.value.trim() }, panel)) {
        button.disabled = false;
      }
    });
    replace(panel, h('div', { class: 'field', 'data-path': 'amount' }, h('label', { for: amountId },
      t('kasse.amount_paid', { name: line.name, currency })), amount),
    h('div', { class: 'field', 'data-path': 'note' }, h('label', { for: `${amountId}-note` }, t('kasse.note')), note),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, t('kasse.confirm')),
      h('button', { type: 'button', onclick: () => panel.remove() }, t('club.cancel'))));
    row.after(panel);
    amount.focus();
  }

  function pot(box) {
    const { currency } = box;
    const items = box.members.map((line) => {
      const owing = !isZero(line.due) && !isNegative(line.due);
      const row = h('li', { class: `kasse-line${owing ? ' owing' : ''}`, 'data-player': line.player },
        h('span', { class: 'who' }, line.name),
        h('span', { class: 'note' }, t('kasse.line', { owes: line.owes, paid: line.paid })),
        h('strong', { class: 'due' }, t(isNegative(line.due) ? 'kasse.credit' : 'kasse.due',
          { amount: money(currency, isNegative(line.due) ? opposite(line.due) : line.due) })));
      if (owing && view.canWrite) {
        const button = h('button', { type: 'button', class: 'secondary pay', 'aria-label':
          t('kasse.pay_for', { name: line.name, amount: money(currency, line.due) }) }, t('kasse.pay'));
        button.addEventListener('click', () => {
          const open = row.nextElementSibling;
          if (open?.classList.contains('pay-confirm')) { open.remove(); return; }
          confirmPanel(line, currency, row);
        });
        row.append(button);
      }
      return row;
    });
    return h('section', { class: 'panel money', 'data-currency': currency },
      h('h3', {}, t('kasse.balance', { amount: money(currency, box.balance) })),
      items.length ? h('ul', { class: 'kasse-lines' }, items) : h('p', { class: 'hint' }, t('kasse.nobody_owes')));
  }

  function paymentItem(payment) {
    return h('li', { 'data-payment': payment.id },
      h('strong', {}, `${payment.name} · ${money(payment.currency, payment.amount)}`),
      h('span', { class: 'note' }, [dateTime(payment.recorded_at), payment.note,
        payment.recorded_by && t('kasse.recorded_by', { name: payment.recorded_by })].filter(Boolean).join(' · ')),
      view.canWrite && h('button', { type: 'button', class: 'secondary no-print', onclick: () => {
        Object.assign(state, { player: String(payment.player), amount: opposite(payment.amount),
          currency: payment.currency, note: t('kasse.reversal_note', { n: payment.id }) });
        drawForm();
        form.scrollIntoView({ block: 'center' });
      } }, t('kasse.reverse')));
  }

  function drawForm() {
    const field = (key, label, control) => h('div', { class: 'field', 'data-path': key },
      h('label', { for: `kasse-${key}` }, label), control);
    const bind = (key) => (event) => { state[key] = event.target.value; };
    const members = view.club.players;
    replace(form, h('h2', {}, t('kasse.other_payment')), h('p', { class: 'hint' }, t('kasse.other_hint')),
      field('player', t('club.member'), h('select', { id: 'kasse-player', onchange: bind('player') },
        h('option', { value: '' }, '—'),
        members.map((m) => h('option', { value: m.id, selected: String(m.id) === state.player }, m.name)))),
      h('div', { class: 'row' },
        field('amount', t('kasse.amount'), h('input', { id: 'kasse-amount', type: 'text', inputmode: 'decimal',
          value: state.amount, autocomplete: 'off', oninput: bind('amount') })),
        field('currency', t('kasse.currency'), h('select', { id: 'kasse-currency', onchange: bind('currency') },
          CURRENCIES.map((c) => h('option', { value: c, selected: c === state.currency }, c))))),
      field('note', t('kasse.note'), h('input', { id: 'kasse-note', type: 'text', maxlength: 200, value: state.note,
        autocomplete: 'off', oninput: bind('note') })),
      field('recorded_by', t('kasse.recorder'), h('input', { id: 'kasse-recorded_by', type: 'text', maxlength: 80,
        value: state.recorder, autocomplete: 'name', oninput: (event) => { state.recorder = event.target.value; } })),
      h('button', { type: 'submit', class: 'primary' }, t('kasse.record')));
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const sent = await send({ player: Number(state.player) || 0, amount: state.amount.trim(), currency: state.currency,
      note: state.note.trim() }, form);
    if (sent) {
      Object.assign(state, { player: '', amount: '', note: '' });
      drawForm();
    }
  });

  async function load() {
    let pots;
    let paid;
    try { [pots, paid] = await Promise.all([kasse(id), payments(id)]); } catch (error) {
      replace(body, h('p', { role: 'alert' }, problemText(error)));
      return;
    }
    replace(body, pots.currencies.length ? pots.currencies.map(pot) : h('p', { class: 'hint' }, t('kasse.empty')));
    replace(list, paid.length ? paid.map(paymentItem) : h('li', { class: 'hint' }, t('kasse.no_payments')));
  }

  const { token, view: viewToken } = clubTokens(id);
  const csv = () => download(`/clubs/${encodeURIComponent(id)}/kasse?format=csv${csvLayout()}`,
    `club-${id}-kasse.csv`, token || viewToken).catch((error) => toast(problemText(error)));
  const actions = h('div', { class: 'choice no-print' },
    h('button', { type: 'button', class: 'secondary', onclick: csv }, t('kasse.csv')),
    h('button', { type: 'button', class: 'secondary', onclick: () => window.print() }, t('kasse.print')));
  drawForm();
  let head = clubHeader(view, 'kasse');
  replace(root, head, h('section', { class: 'panel kasse' }, h('h2', {}, t('kasse.title')), body, actions),
    view.canWrite && form,
    h('section', { class: 'panel' }, h('h2', {}, t('kasse.payments')), list));
  await load();
  return followClub(id, () => view.club.version, async () => {
    try { view = await loadClub(id); } catch { return; }
    const next = clubHeader(view, 'kasse');
    head.replaceWith(next);
    head = next;
    await load();
  });
}
