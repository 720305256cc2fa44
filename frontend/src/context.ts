// What every view of the panel gets from <memory-panel>: the API, the texts, the household's
// persons and areas, and how times and names are shown.
import { MemoryApi, personsOf, type Area, type HomeAssistant, type Person } from "./api";
import { panelLanguage, translator, type Translate } from "./i18n";

export interface PanelContext {
  hass: HomeAssistant;
  api: MemoryApi;
  t: Translate;
  /** The translated label of an enum value (`group` "kind", "scope", "factor", …), else the value. */
  label(group: string, value: string): string;
  /** The panel's language ("en", "de", …), also used for dates and numbers. */
  language: string;
  persons: Person[];
  areas: Area[];
  time(iso: string | null | undefined): string;
  number(value: number, digits?: number): string;
  personName(id: string | null | undefined): string;
  areaName(id: string | null | undefined): string;
}

export function makeContext(hass: HomeAssistant, areas: Area[]): PanelContext {
  const language = panelLanguage(hass.language);
  // Dates in the user's own locale tag (de-CH, en-GB) when it has one, texts in the panel's language.
  const locale = hass.language || language;
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const persons = personsOf(hass);
  const t = translator(hass.language);
  return {
    hass,
    api: new MemoryApi(hass),
    t,
    label: (group, value) => {
      const key = `${group}.${value}`;
      const text = t(key);
      return text === key ? value : text;
    },
    language,
    persons,
    areas,
    time: (iso) => {
      if (!iso) return "";
      const d = new Date(iso);
      return Number.isNaN(d.getTime()) ? iso : dates.format(d);
    },
    number: (value, digits = 2) =>
      new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value),
    personName: (id) => {
      if (!id) return "";
      return persons.find((p) => p.id === id)?.name ?? id;
    },
    areaName: (id) => {
      if (!id) return "";
      return areas.find((a) => a.area_id === id)?.name ?? id;
    },
  };
}
