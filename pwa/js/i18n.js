// Strings live in i18n/<lang>.json; German when the browser prefers it, switchable and remembered.
const LANGS = ['de', 'en'];
const KEY = 'tafelrunde.lang';
let strings = {};
let current = 'en';

export function preferredLanguage() {
  const chosen = localStorage.getItem(KEY);
  if (LANGS.includes(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

export async function useLanguage(lang, remember = false) {
  const response = await fetch(`i18n/${lang}.json`);
  strings = await response.json();
  current = lang;
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(KEY, lang);
}

export const language = () => current;
export const otherLanguage = () => (current === 'de' ? 'en' : 'de');
export const has = (key) => key in strings;

export function t(key, params = {}) {
  const text = strings[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value == null) return whole;
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
}

/** An API problem entry or a reason: translated by code + params, else the API's own message. */
export function explain(item) {
  const key = `code.${item.code}`;
  return has(key) ? t(key, item.params || {}) : item.message;
}

export function number(value) {
  return new Intl.NumberFormat(current).format(value);
}
