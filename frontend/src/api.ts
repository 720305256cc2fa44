// The memory/* WebSocket API (docs/panel.md, custom_components/memory/websocket_api.py): the shapes
// the panel reads and one typed call per command. Times are ISO-8601 UTC strings.

export interface HassEntity {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
}

/** What Home Assistant hands a custom panel as `hass` (only the parts used here). */
export interface HomeAssistant {
  language: string;
  states: Record<string, HassEntity>;
  user?: { id: string; name: string; is_admin: boolean };
  callWS<T>(msg: Record<string, unknown>): Promise<T>;
  /** The WebSocket connection: a command answered with events (memory/import with progress). */
  connection?: {
    subscribeMessage<E>(callback: (event: E) => void, msg: Record<string, unknown>): Promise<() => Promise<void>>;
  };
  /** Home Assistant's texts in the user's language (the integrations' ones once loaded). */
  localize?: Localize;
  /** Loads a category of an integration's backend translations ("exceptions", "memory") in the
   * user's language; resolves to the updated localize. */
  loadBackendTranslation?(category: string, integration?: string): Promise<Localize | undefined>;
}

/** hass.localize: the text of a key with its placeholders filled, "" when there is none. */
export type Localize = (key: string, placeholders?: Record<string, unknown>) => string;

export const KINDS = ["fact", "preference", "episode", "procedure", "note"] as const;
export const SCOPES = ["private", "room", "shared", "system"] as const;
export const EDITABLE_SCOPES = ["private", "room", "shared"] as const;
export const PROVENANCES = ["confirmed", "observed", "extracted", "inferred"] as const;
export const STATUSES = ["active", "pending", "superseded", "archived"] as const;

export interface SaidBy {
  person_id: string | null;
  person_name: string | null;
  area_id: string | null;
  area_name: string | null;
  at: string;
}

export interface MemoryView {
  id: string;
  content: string;
  kind: string;
  language: string;
  provenance: string;
  scope: string;
  owner_id: string | null;
  area_id: string | null;
  status: string;
  sensitive: boolean;
  importance: number;
  confidence: number;
  subject: string | null;
  predicate: string | null;
  value: string | null;
  created_at: string;
  updated_at: string;
  valid_from: string | null;
  valid_to: string | null;
  superseded_by: string | null;
  source: string;
  source_ref: string | null;
  said_by: SaidBy;
}

export interface Overview {
  counts: {
    by_scope: Record<string, number>;
    by_provenance: Record<string, number>;
    by_status: Record<string, number>;
    pending: number;
    tombstones: number;
  };
  last_consolidation: string | null;
  store: { kind: string; where: string };
  encoder: { provider: string; model: string; dimension: number };
}

export interface ListFilters {
  kind?: string;
  scope?: string;
  person?: string;
  area?: string;
  provenance?: string;
  status?: string;
  language?: string;
  said_by?: string;
}

export interface MemoryPage {
  memories: MemoryView[];
  total: number;
  offset: number;
  limit: number;
}

export interface SearchHit {
  memory: MemoryView;
  score: number;
  similarity: number;
  factors: Record<string, number>;
  outdated_by: string | null;
}

export interface History {
  memory: MemoryView;
  older: MemoryView[];
  newer: MemoryView[];
}

export interface MemoryEdit {
  content?: string;
  scope?: string;
  owner?: string;
  area?: string;
  kind?: string;
}

export interface PendingItem {
  memory: MemoryView;
  replaces: MemoryView[];
}

export interface Tombstone {
  id: string;
  scope: string;
  owner_id: string | null;
  area_id: string | null;
  created_at: string;
  lifted_at: string | null;
}

/** A memory in a consolidation report: its id and text (null when it no longer exists). */
export interface Brief {
  id: string;
  content: string | null;
}

/** What memory/consolidate returns: the counts, the conflicts left for a person and, for a dry
 * run, what it would change (`changes`) and prune (`prune`: ids); after a real run `judged`. */
export interface ConsolidationReport {
  merged: number;
  superseded: number;
  pruned: number;
  conflicts: { older: Brief; newer: Brief; similarity: number }[];
  judged?: number;
  dry_run?: boolean;
  changes?: (Brief & { status: string; by: Brief })[];
  prune?: string[];
}

export interface ImportReport {
  created: number;
  duplicates: number;
  /** `reason` is a key of the integration's exceptions translations (or conflict, forgotten);
   * `field` (when the server sends it) names the export's field that was refused. */
  rejected: { index: number; reason: string; field?: string }[];
}

export interface Settings {
  learning: boolean;
  learning_opt_out_areas: string[];
  review_extracted: boolean;
  cloud_personal: boolean;
  transcript_retention_days: number;
}

export interface Area {
  area_id: string;
  name: string;
}

export interface Person {
  id: string;
  name: string;
}

/** A person's voice (memory/voice/status): enrolled or not, from how many clips, when. */
export interface Voice {
  person: string;
  enrolled: boolean;
  clips: number;
  enrolled_at: string | null;
}

/** A satellite with utterances kept for enrolment (the last 15 minutes, at most 5). */
export interface HeardSatellite {
  satellite: string;
  name: string;
  utterances: number;
}

/** Who spoke one utterance and how sure (memory/voice/recognitions; never audio or words). */
export interface Recognition {
  at: string;
  /** the person taken for the turn; null: unknown */
  person: string | null;
  /** voice (our own recogniser) | tag | speaker_id (the trusted engine's); null: nobody recognised */
  recogniser: "voice" | "tag" | "speaker_id" | null;
  strict: boolean;
  /** the engine and our recogniser disagreed, or the engine named nobody of the household */
  conflict: boolean;
  /** what the trusted speech-to-text engine named: how, its name, the person it maps to */
  named: { how: string; name: string; person: string | null } | null;
  /** our own recogniser's person (null: no voice matched) */
  voice_person: string | null;
  /** our recogniser's best cosine and the utterance's threshold; null without speech */
  score: number | null;
  threshold: number | null;
  speech_seconds: number;
  snr_db: number;
}

export interface SatelliteRecognitions {
  satellite: string;
  name: string;
  /** newest first */
  recognitions: Recognition[];
}

export interface Recognitions {
  recognition: boolean;
  /** how many are kept per satellite */
  kept: number;
  satellites: SatelliteRecognitions[];
}

export interface VoiceStatus {
  recognition: boolean;
  voices: Voice[];
  satellites: HeardSatellite[];
}

/** One enrolment clip as the server assessed it (recognition.ClipReport). */
export interface ClipAssessment {
  name: string;
  seconds: number;
  /** speech pymicro-vad heard (what recognition's threshold reads) */
  speech_seconds: number;
  /** how long the voice was heard, pauses left out: what the minimum for a clip is compared with */
  active_seconds: number;
  level_dbfs: number;
  peak_dbfs: number;
  /** share 0..1 of samples at full scale */
  clipped: number;
  snr_db: number;
  similarity: number | null;
  same_voice: boolean | null;
  /** no_speech | too_short | noisy | two_voices | other_voice, null when the clip is accepted */
  problem: string | null;
  /** what to do about the problem, in English (the panel shows its own translation of it) */
  advice: string | null;
  /** quiet | clipping */
  warnings: string[];
}

/** Shares 0..1 of the person's utterances expected to be recognised, by condition. */
export interface ExpectedRecognition {
  sentence: number;
  command: number;
  noisy: number;
}

export interface EnrolmentReport {
  accepted: boolean;
  clips: ClipAssessment[];
  expected: ExpectedRecognition | null;
  other_person: string | null;
}

/** Where enrolment clips come from: WAVs sent (base64 of 16-bit mono 16 kHz) or a satellite's
 * last utterances. */
export type ClipSource =
  | { clips: { name: string; wav: string }[] }
  | { satellite: string; utterances?: number };

export interface Enrolled {
  person: string;
  clips: number;
  enrolled_at: string;
  report: EnrolmentReport;
}

/** An error the server sent (`code`: not_found, invalid_format, not_loaded, invalid_input, …). */
export interface WsError {
  code: string;
  message: string;
  translation_key?: string;
  translation_domain?: string;
  translation_placeholders?: Record<string, string>;
}

/** Drops undefined and empty-string values, so optional filters are left out of the message. */
function compact(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== ""));
}

export class MemoryApi {
  constructor(private readonly hass: HomeAssistant) {}

  private call<T>(type: string, data: Record<string, unknown> = {}): Promise<T> {
    return this.hass.callWS<T>({ type, ...compact(data) });
  }

  overview(): Promise<Overview> {
    return this.call("memory/overview");
  }

  list(filters: ListFilters, offset: number, limit: number): Promise<MemoryPage> {
    return this.call("memory/list", { ...filters, offset, limit });
  }

  search(
    query: string,
    person?: string,
    area?: string,
    language?: string,
    limit?: number,
  ): Promise<{ hits: SearchHit[]; withheld?: SearchHit[] }> {
    return this.call("memory/search", { query, person, area, language, limit });
  }

  get(memoryId: string): Promise<History> {
    return this.call("memory/get", { memory_id: memoryId });
  }

  update(memoryId: string, edit: MemoryEdit): Promise<{ memory: MemoryView }> {
    return this.call("memory/update", { memory_id: memoryId, ...edit });
  }

  pending(): Promise<{ pending: PendingItem[] }> {
    return this.call("memory/pending");
  }

  approve(memoryId: string): Promise<{ memory: MemoryView; replaced: string[] }> {
    return this.call("memory/approve", { memory_id: memoryId });
  }

  reject(memoryId: string): Promise<{ forgotten: string }> {
    return this.call("memory/reject", { memory_id: memoryId });
  }

  forget(memoryId: string): Promise<{ forgotten: string }> {
    return this.call("memory/forget", { memory_id: memoryId });
  }

  forgetPerson(person: string): Promise<{ forgotten: number }> {
    return this.call("memory/forget_person", { person });
  }

  tombstones(offset: number, limit: number): Promise<{ tombstones: Tombstone[]; total: number }> {
    return this.call("memory/tombstones", { offset, limit });
  }

  liftTombstone(tombstoneId: string): Promise<{ lifted: string }> {
    return this.call("memory/lift_tombstone", { tombstone_id: tombstoneId });
  }

  consolidate(dryRun: boolean): Promise<ConsolidationReport> {
    return this.call("memory/consolidate", { dry_run: dryRun });
  }

  exportAll(): Promise<Record<string, unknown>> {
    return this.call("memory/export");
  }

  /** Imports an export; `onProgress(done, total)` as the server goes (memory/import with
   * progress: its events, the report last), or one plain call without a connection. */
  importAll(data: unknown, onProgress?: (done: number, total: number) => void): Promise<ImportReport> {
    const connection = this.hass.connection;
    if (!connection) return this.call("memory/import", { data });
    type Event = { done: number; total: number } | { result: ImportReport };
    return new Promise((resolve, reject) => {
      let report: ImportReport | undefined;
      let unsubscribe: (() => Promise<void>) | undefined;
      const done = () => unsubscribe?.().catch(() => undefined);
      connection
        .subscribeMessage<Event>(
          (event) => {
            if ("result" in event) {
              report = event.result;
              resolve(report);
              done();
            } else onProgress?.(event.done, event.total);
          },
          { type: "memory/import", data, progress: true },
        )
        .then((unsub) => {
          unsubscribe = unsub;
          if (report) done(); // the report came before the subscription was confirmed
        }, reject);
    });
  }

  settings(): Promise<Settings> {
    return this.call("memory/settings");
  }

  updateSettings(change: Partial<Settings>): Promise<Settings> {
    return this.call("memory/settings/update", change);
  }

  voiceStatus(): Promise<VoiceStatus> {
    return this.call("memory/voice/status");
  }

  assessVoice(person: string, source: ClipSource): Promise<EnrolmentReport> {
    return this.call("memory/voice/assess", { person, ...source });
  }

  enrollVoice(person: string, source: ClipSource): Promise<Enrolled> {
    return this.call("memory/voice/enroll", { person, ...source });
  }

  forgetVoice(person: string): Promise<{ person: string; forgotten: boolean }> {
    return this.call("memory/voice/forget", { person });
  }

  voiceRecognitions(): Promise<Recognitions> {
    return this.call("memory/voice/recognitions");
  }

  areas(): Promise<Area[]> {
    return this.call("config/area_registry/list");
  }
}

/** The persons of the household, from the person.* states, sorted by name. */
export function personsOf(hass: HomeAssistant): Person[] {
  return Object.values(hass.states)
    .filter((s) => s.entity_id.startsWith("person."))
    .map((s) => ({ id: s.entity_id, name: String(s.attributes.friendly_name ?? s.entity_id) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const DOMAIN = "memory";

/** hass.localize with the integration's `exceptions` translations loaded in the user's language
 * (undefined when this Home Assistant cannot load them). */
export async function exceptionsLocalize(hass: HomeAssistant, domain: string = DOMAIN): Promise<Localize | undefined> {
  if (typeof hass.loadBackendTranslation !== "function") return hass.localize;
  try {
    const localize = await hass.loadBackendTranslation("exceptions", domain);
    return typeof localize === "function" ? localize : hass.localize;
  } catch {
    return hass.localize;
  }
}

/** The translated exception `key` of `domain` with `placeholders`, "" when there is none (or it
 * cannot be filled, e.g. a placeholder is missing). */
export function exceptionText(
  localize: Localize | undefined,
  key: string,
  placeholders: Record<string, unknown> = {},
  domain: string = DOMAIN,
): string {
  if (!localize) return "";
  try {
    const text = localize(`component.${domain}.exceptions.${key}.message`, placeholders);
    return typeof text === "string" && !text.startsWith("Translation error") ? text : "";
  } catch {
    return "";
  }
}

/** The message of a failed call in the user's language: an error with a `translation_key` is
 * shown from the integration's own translations (as Home Assistant's frontend does for a
 * translated action error), else the server's message (in Home Assistant's language). */
export async function describeError(hass: HomeAssistant | undefined, err: unknown): Promise<string> {
  if (hass && err && typeof err === "object" && "translation_key" in err) {
    const e = err as WsError;
    if (e.translation_key) {
      const domain = e.translation_domain || DOMAIN;
      const text = exceptionText(await exceptionsLocalize(hass, domain), e.translation_key, e.translation_placeholders ?? {}, domain);
      if (text) return text;
    }
  }
  return errorMessage(err);
}

/** The message of a failed call: the server's (translated) message, else the error as text. */
export function errorMessage(err: unknown): string {
  if (err && typeof err === "object" && "message" in err) {
    return String((err as WsError).message);
  }
  return String(err);
}
