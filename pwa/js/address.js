// The address every shared link and QR code carries is the one this page was opened at
// (location.origin). Opened as 127.0.0.1 or localhost, that is the computer's own name for itself,
// which no phone can open: the screens that share links say so (README, "At the table").
import { h, replace } from './dom.js';
import { t } from './i18n.js';

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$|\.localhost$/;

/** A warning to show next to shared links that no other device could open; null when they work. */
export function unreachableLinks() {
  if (!LOOPBACK.test(location.hostname)) return null;
  return h('p', { class: 'field-error unreachable-links' }, t('share.loopback', { host: location.host }));
}

/**
 * A shared link as a QR code, drawn by the server (GET /api/v1/qr, README "Sharing"): the browser
 * keeps each code for a year and the service worker keeps the ones shown, so a code seen once
 * shows offline too. One never shown cannot be drawn offline: a line says so until the phone is
 * back online (the phones need the server to open the link anyway).
 */
export function qrCode(link, label) {
  const code = h('div', { class: 'qr' });
  const draw = () => replace(code, h('img', {
    src: `/api/v1/qr?text=${encodeURIComponent(link)}`, alt: label, width: 180, height: 180,
    onerror: () => {
      replace(code, h('p', { class: 'hint qr-offline' }, t('share.qr_offline')));
      window.addEventListener('online', draw, { once: true });
    },
  }));
  draw();
  return code;
}
