// Share: a view link and (for whoever holds it) the edit link, each as a QR code with a copy
// button; and the CSV export, laid out for this device's spreadsheet, words in the app's language.
import { apiLink, csvLayout, download } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { qrCode, unreachableLinks } from '../address.js';
import { tokensFor } from '../store.js';
import { errorScreen, header, loadView, problemText, roundT } from '../match-view.js';

export function shareLinks(id) {
  const { token, view, organiser } = tokensFor(id);
  const base = `${location.origin}${location.pathname}#/m/${encodeURIComponent(id)}`;
  return { view: view ? `${base}?v=${encodeURIComponent(view)}` : base,
    edit: token && !organiser ? `${base}?t=${encodeURIComponent(token)}` : null };
}

/** The export endpoint as a link; private matches fetch it with the token and save the blob. */
export function exportLink(match) {
  const path = `/matches/${encodeURIComponent(match.id)}/export?format=csv${csvLayout()}`;
  const filename = `${match.game}-${match.id}.csv`;
  const link = h('a', { class: 'button secondary export', href: apiLink(path), download: filename },
    t('share.export'));
  if (match.private) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const { token, view } = tokensFor(match.id);
      download(path, filename, token || view).catch((error) => toast(problemText(error)));
    });
  }
  return link;
}

/** A link as a QR code with copy (and send, where the phone can) buttons. */
export function linkCard(title, hint, url, kind) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast(t('share.copied'));
    } catch {
      field.select();
    }
  };
  const field = h('input', { type: 'text', readonly: true, value: url, 'aria-label': title, class: 'link' });
  const code = qrCode(url, t('share.qr_of', { what: title }));
  return h('section', { class: `panel share-${kind}` }, h('h2', {}, title), h('p', { class: 'hint' }, hint),
    unreachableLinks(), code, field, h('button', { type: 'button', class: 'secondary', onclick: copy }, t('share.copy')),
    navigator.share && h('button', { type: 'button', class: 'secondary',
      onclick: () => navigator.share({ title: 'Tafelrunde', url }).catch(() => {}) }, t('share.send')));
}

export async function shareScreen(root, id) {
  let view;
  try { view = await loadView(id); } catch (error) { return errorScreen(root, error); }
  const links = shareLinks(id);
  replace(root, header(view, 'share'),
    linkCard(t('share.view'), t('share.view_hint'), links.view, 'view'),
    links.edit && linkCard(t('share.edit'), roundT(view.match.game, 'share.edit_hint'), links.edit, 'edit'),
    h('section', { class: 'panel' }, h('h2', {}, t('share.export_title')), exportLink(view.match)),
    h('section', { class: 'panel' }, h('p', {}, t('share.code', { id }))));
  return undefined;
}
