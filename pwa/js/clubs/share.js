// Sharing a club: the member link (club token and view token: that phone starts the club's
// matches and can pass the view link on) and the view link (reads everything, writes nothing),
// each as a QR code; and the club's results and statistics as CSV or JSON, and its backup.
// Decision: a phone holding only the view token shows only the view link; one holding only the
// club token (an older member link) shows the member link alone.
import { csvLayout, download } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { problemText } from '../match-view.js';
import { linkCard } from '../screens/share.js';
import { clubTokens } from '../store.js';
import { clubError, clubHeader, loadClub } from './common.js';

export function clubLinks(id) {
  const { token, view } = clubTokens(id);
  const base = `${location.origin}${location.pathname}#/c/${encodeURIComponent(id)}`;
  const query = (pairs) => `${base}?${new URLSearchParams(pairs.filter(([, value]) => value))}`;
  return { member: token ? query([['t', token], ['v', view]]) : null, view: view ? query([['v', view]]) : null };
}

function exports(id) {
  const { token, view } = clubTokens(id);
  const save = (path, filename) => () => download(`/clubs/${encodeURIComponent(id)}${path}`, filename, token || view)
    .catch((error) => toast(problemText(error)));
  const item = (label, path, filename) => h('button', { type: 'button', class: 'secondary export', onclick: save(path, filename) }, label);
  return h('section', { class: 'panel' }, h('h2', {}, t('club.export_title')),
    h('div', { class: 'choice' },
      item(t('club.export_results'), `/export?format=csv&table=results${csvLayout()}`, `club-${id}-results.csv`),
      item(t('club.export_statistics'), `/export?format=csv&table=statistics${csvLayout()}`, `club-${id}-statistics.csv`),
      item(t('club.export_json'), '/export?format=json', `club-${id}.json`),
      token && item(t('club.backup'), '/backup', `club-${id}-backup.json`)),
    h('p', { class: 'hint' }, t('club.export_hint')));
}

export async function clubShareScreen(root, id) {
  let view;
  try { view = await loadClub(id); } catch (error) { return clubError(root, error); }
  const links = clubLinks(id);
  replace(root, clubHeader(view, 'share'),
    links.member && linkCard(t('club.member_link'), t('club.member_link_hint'), links.member, 'member'),
    links.view && linkCard(t('club.view_link'), t('club.view_link_hint'), links.view, 'view'),
    exports(id));
  return undefined;
}
