// The app's own words and how they are shown. Strings live in i18n/<lang>.json as flat keys; a
// value that depends on a count is an object of plural forms (Intl.PluralRules categories, `other`
// required) chosen by the `n` parameter; a key ending in `.ordinal` chooses by the ordinal rules
// (1st, 2nd; 1er, 2e). Numbers, lists and dates follow the reader's locale.
// The app starts in the phone's language, remembers a choice, and asks the API for the same one.
// Decision: numbers use the phone's own regional format when its language is the app's (a Swiss
// phone set to German shows 0.33 and 1’234, a German one 0,33 and 1.234); otherwise the language's.
export const LANGUAGES = ['de', 'fr', 'it', 'en'];
/** Each language named in itself, as a language picker shows them. */
export const LANGUAGE_NAMES = { de: 'Deutsch', fr: 'Français', it: 'Italiano', en: 'English' };
const FALLBACK = 'en';
const KEY = 'tafelrunde.lang';
const ALIASES = { gsw: 'de' }; // Swiss German phones read German

let strings = {};
let current = FALLBACK;
let locale = FALLBACK;
let plurals = new Intl.PluralRules(FALLBACK);
let ordinals = new Intl.PluralRules(FALLBACK, { type: 'ordinal' });

const phoneTags = () => (navigator.languages?.length ? navigator.languages : [navigator.language || FALLBACK]);
const primary = (tag) => String(tag).split(/[-_]/)[0].toLowerCase();
const languageOf = (tag) => ALIASES[primary(tag)] ?? primary(tag);

/** The first supported language among BCP 47 tags (de-CH → de), else English. */
export function languageFor(tags) {
  return tags.map(languageOf).find((lang) => LANGUAGES.includes(lang)) ?? FALLBACK;
}

export function preferredLanguage() {
  const chosen = localStorage.getItem(KEY);
  return LANGUAGES.includes(chosen) ? chosen : languageFor(phoneTags());
}

/** The phone's tag for `lang` with its region (gsw-CH → de-CH), or `lang` itself. */
function localeFor(lang) {
  const own = phoneTags().find((tag) => languageOf(tag) === lang);
  if (!own) return lang;
  const tag = [lang, ...String(own).split(/[-_]/).slice(1)].join('-');
  return Intl.NumberFormat.supportedLocalesOf(tag).length ? tag : lang;
}

export async function useLanguage(lang, remember = false) {
  const response = await fetch(`i18n/${lang}.json`);
  strings = await response.json();
  current = lang;
  locale = localeFor(lang);
  plurals = new Intl.PluralRules(locale);
  ordinals = new Intl.PluralRules(locale, { type: 'ordinal' });
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(KEY, lang);
}

/**
 * Reads the app's words again, through the service worker that now controls the page: read
 * before it did (the first visit, in a language that is not the phone's), they went past it.
 */
export const keepWordsForOffline = () => fetch(`i18n/${current}.json`).catch(() => {});

/** The app's language. */
export const language = () => current;
/**
 * What every API request asks for (Accept-Language, ?lang=): the app's language with the phone's
 * region where it has one (de-CH), so the API's numbers are written as the app writes them
 * (0.33 on a Swiss phone, 0,33 on a German one) and the printed standings too.
 */
export const languageTag = () => locale;
export const has = (key) => key in strings;

export function number(value, options = {}) {
  return new Intl.NumberFormat(locale, options).format(value);
}

/** "Ann, Ben und Cid": names joined as the language joins them. */
export function list(values) {
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(values.map(String));
}

export function dateTime(value) {
  return new Date(value).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A calendar date as the API gives it ("2026-11-20", e.g. a club's evening), in the locale's words. */
export function day(value) {
  const [year, month, date] = value.split('-').map(Number);
  return new Date(year, month - 1, date).toLocaleDateString(locale, { dateStyle: 'medium' });
}

/** The string of `key` with {name} placeholders filled: numbers and lists in the locale's format. */
export function t(key, params = {}) {
  let text = strings[key] ?? key;
  if (typeof text === 'object') {
    text = text[(key.endsWith('.ordinal') ? ordinals : plurals).select(params.n)] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value == null) return whole;
    if (typeof value === 'number') return number(value);
    return Array.isArray(value) ? list(value) : String(value);
  });
}

