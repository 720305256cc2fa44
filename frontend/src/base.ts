// The base of every view (one custom element per tab), and the pieces the views share: a
// labelled <select>, a memory card with its "who said it" line, and the events views send up.
import {
  html,
  LitElement,
  nothing,
  type CSSResultGroup,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from "lit";
import { describeError, type MemoryView, type SaidBy } from "./api";
import type { PanelContext } from "./context";
import { shared } from "./styles";

/** Asks <memory-panel> to show one memory (its history, edit and forget). */
export function openMemory(from: HTMLElement, id: string): void {
  from.dispatchEvent(new CustomEvent("memory-open", { detail: { id }, bubbles: true, composed: true }));
}

/** Asks <memory-panel> to switch to another tab. */
export function navigate(from: HTMLElement, view: string): void {
  from.dispatchEvent(new CustomEvent("memory-navigate", { detail: { view }, bubbles: true, composed: true }));
}

export abstract class ViewBase extends LitElement {
  static styles: CSSResultGroup = shared;
  static properties: PropertyDeclarations = {
    ctx: { attribute: false },
    error: { state: true },
    busy: { state: true },
  };

  ctx?: PanelContext;
  error = "";
  busy = false;
  private started = false;

  /** Called once, when the view first has its context: load what it shows. */
  protected start(): void {}

  protected willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (!this.started && this.ctx) {
      this.started = true;
      this.start();
    }
  }

  /** Runs `work`, showing its failure in the view's error line, in the user's language. */
  protected async run<T>(work: () => Promise<T>): Promise<T | undefined> {
    this.busy = true;
    this.error = "";
    try {
      return await work();
    } catch (err) {
      this.error = await describeError(this.ctx?.hass, err);
      return undefined;
    } finally {
      this.busy = false;
    }
  }

  protected renderError(): TemplateResult | typeof nothing {
    return this.error ? html`<div class="error" role="alert" data-testid="error">${this.error}</div>` : nothing;
  }
}

export interface Option {
  value: string;
  label: string;
}

/** A labelled <select>; `testid` is also its element id. */
export function selectField(
  testid: string,
  label: string,
  value: string,
  options: Option[],
  onChange: (value: string) => void,
): TemplateResult {
  return html`<label class="field" for=${testid}
    >${label}
    <select
      id=${testid}
      data-testid=${testid}
      .value=${value}
      @change=${(e: Event) => onChange((e.target as HTMLSelectElement).value)}
    >
      ${options.map((o) => html`<option value=${o.value} ?selected=${o.value === value}>${o.label}</option>`)}
    </select></label
  >`;
}

/** The options of an enum (kind, scope, …) with translated labels, after an optional "any" entry. */
export function enumOptions(ctx: PanelContext, group: string, values: readonly string[], any?: string): Option[] {
  const opts = values.map((v) => ({ value: v, label: ctx.label(group, v) }));
  return any === undefined ? opts : [{ value: "", label: any }, ...opts];
}

export function personOptions(ctx: PanelContext, none?: string): Option[] {
  const opts = ctx.persons.map((p) => ({ value: p.id, label: p.name }));
  return none === undefined ? opts : [{ value: "", label: none }, ...opts];
}

export function areaOptions(ctx: PanelContext, none?: string): Option[] {
  const opts = ctx.areas.map((a) => ({ value: a.area_id, label: a.name }));
  return none === undefined ? opts : [{ value: "", label: none }, ...opts];
}

/** "Said by Anna in the Kitchen, 1 Dec 2026, 10:00": who told it, where, when. */
export function renderSaidBy(ctx: PanelContext, said: SaidBy): TemplateResult {
  const person = said.person_name || ctx.personName(said.person_id);
  const room = said.area_name || ctx.areaName(said.area_id);
  const key = `said_by.${person ? "person" : "unknown"}${room ? "_room" : ""}`;
  return html`<div
    class="said-by"
    data-testid="said-by"
    data-person=${said.person_id ?? ""}
    data-area=${said.area_id ?? ""}
  >
    ${ctx.t(key, { person, room, time: ctx.time(said.at) })}
  </div>`;
}

/** The chips under a memory's text: kind, scope (with owner or room), provenance, status, language. */
export function renderChips(ctx: PanelContext, m: MemoryView): TemplateResult {
  const t = ctx.t;
  const scope =
    m.scope === "private" && m.owner_id
      ? t("scope.private_of", { person: ctx.personName(m.owner_id) })
      : m.scope === "room" && m.area_id
        ? t("scope.room_of", { room: ctx.areaName(m.area_id) })
        : ctx.label("scope", m.scope);
  return html`<div class="chips">
    <span class="chip" data-testid="chip-kind">${ctx.label("kind", m.kind)}</span>
    <span class="chip" data-testid="chip-scope">${scope}</span>
    <span class="chip" data-testid="chip-provenance">${ctx.label("provenance", m.provenance)}</span>
    <span class="chip ${m.status === "active" ? "" : "warn"}" data-testid="chip-status">${ctx.label("status", m.status)}</span>
    <span class="chip" data-testid="chip-language">${m.language}</span>
    ${m.sensitive ? html`<span class="chip warn" data-testid="chip-sensitive">${t("memory.sensitive")}</span>` : nothing}
  </div>`;
}

/** A memory as a card: its text, chips, who said it, an "Open" button and `extra` below. */
export function renderMemory(
  ctx: PanelContext,
  host: HTMLElement,
  m: MemoryView,
  extra: TemplateResult | typeof nothing = nothing,
  testid = "memory-item",
): TemplateResult {
  return html`<li class="card" data-testid=${testid} data-memory-id=${m.id}>
    <div class="content" data-testid="memory-content">${m.content}</div>
    ${renderChips(ctx, m)} ${renderSaidBy(ctx, m.said_by)}
    <div class="actions">
      <button data-testid="open-memory" @click=${() => openMemory(host, m.id)}>${ctx.t("memory.open")}</button>
    </div>
    ${extra}
  </li>`;
}

/** "1–50 of 230" with previous/next buttons; `go(offset)` loads that page. */
export function renderPager(
  ctx: PanelContext,
  prefix: string,
  offset: number,
  limit: number,
  total: number,
  go: (offset: number) => void,
): TemplateResult {
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return html`<div class="row pager">
    <button data-testid="${prefix}-prev" ?disabled=${offset <= 0} @click=${() => go(Math.max(0, offset - limit))}>
      ${ctx.t("page.previous")}
    </button>
    <span data-testid="${prefix}-range" aria-live="polite">${ctx.t("page.range", { first, last, total })}</span>
    <button data-testid="${prefix}-next" ?disabled=${last >= total} @click=${() => go(offset + limit)}>
      ${ctx.t("page.next")}
    </button>
  </div>`;
}
