// The page's words: one catalogue per language (static/i18n/<lang>.json), the browser's language by
// default, the player's choice (the menu's switch) remembered in this browser. The server is told
// the language too (net.js), so the texts it builds come in the same one.
export const LANGS = { en: "English", fr: "Français" };
const KEY = "tb.lang";

function chosen() {
  const kept = localStorage.getItem(KEY);
  if (kept && kept in LANGS) return kept;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (base in LANGS) return base;
  }
  return "en";
}

export const lang = chosen();
document.documentElement.lang = lang;

async function load(l) {
  const r = await globalThis.fetch(new URL(`../i18n/${l}.json`, import.meta.url));  // beside js/, wherever the site is
  return r.ok ? r.json() : {};
}

// English fills any gap, so a missing key shows words, never a key (the catalogue test finds gaps)
const english = await load("en");
const words = lang === "en" ? english : { ...english, ...(await load(lang)) };

/** The catalogue's text for `key`, its {placeholders} filled from `vars`. */
export function t(key, vars = {}) {
  const text = words[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

// the language's own plural rule (CLDR, through the browser): French says "0 tuile", English "0 tiles"
const plural = new Intl.PluralRules(lang);

/** Count-dependent text: `key.one` where the language's rule says "one" (1 in English; 0 and 1 in French),
 * `key.many` otherwise ({n} is the count). */
export const tn = (key, n, vars = {}) => t(`${key}.${plural.select(n) === "one" ? "one" : "many"}`, { n, ...vars });

/** Switch the page's language (kept in this browser) and redraw it in that language. */
export function setLang(l) {
  localStorage.setItem(KEY, l);
  location.reload();
}

/** A language switch: one button per language, the current one pressed. */
export function langSwitch(h) {
  return h("div", { class: "row wrap lang-switch", role: "group", "aria-label": t("menu.language") },
    Object.entries(LANGS).map(([code, name]) => h("button", { class: `btn${code === lang ? " primary" : ""}`, lang: code,
      "aria-pressed": code === lang ? "true" : "false", "data-lang": code, onclick: () => code !== lang && setLang(code) }, name)));
}

/** A seat's colour as a name ("Blue", "Bleu"). */
export const seatName = (seat) => t(`seat.${seat}`);
