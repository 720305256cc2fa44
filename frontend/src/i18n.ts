// Panel texts in the integration's five languages, chosen by Home Assistant's language
// (hass.language: "de", "de-CH", "pt-BR", …): the exact tag, then its primary language, then English.
import de from "./translations/de.json";
import en from "./translations/en.json";
import es from "./translations/es.json";
import fr from "./translations/fr.json";
import it from "./translations/it.json";

export type Texts = Record<string, string>;
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export const TRANSLATIONS: Record<string, Texts> = { de, en, es, fr, it };

/** The language the panel speaks for `language` (one of TRANSLATIONS' keys). */
export function panelLanguage(language: string | undefined): string {
  const tag = (language ?? "en").toLowerCase();
  if (tag in TRANSLATIONS) return tag;
  const primary = tag.split("-")[0];
  return primary in TRANSLATIONS ? primary : "en";
}

/** t(key, vars): the text of `key` in `language` (English when missing), {name} placeholders filled. */
export function translator(language: string | undefined): Translate {
  const texts = TRANSLATIONS[panelLanguage(language)];
  return (key, vars) => {
    const text = texts[key] ?? en[key as keyof typeof en] ?? key;
    return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text;
  };
}
