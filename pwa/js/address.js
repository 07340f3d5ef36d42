// The address every shared link and QR code carries is the one this page was opened at
// (location.origin). Opened as 127.0.0.1 or localhost, that is the computer's own name for itself,
// which no phone can open: the screens that share links say so (README, "At the table").
import { h } from './dom.js';
import { t } from './i18n.js';

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$|\.localhost$/;

/** A warning to show next to shared links that no other device could open; null when they work. */
export function unreachableLinks() {
  if (!LOOPBACK.test(location.hostname)) return null;
  return h('p', { class: 'field-error unreachable-links' }, t('share.loopback', { host: location.host }));
}
