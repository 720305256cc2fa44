// <hm-detail>: one memory — all it holds, who said it, its history chain (what it superseded and
// what superseded it, with validity windows), and edit, approve/reject and forget.
import { css, html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { EDITABLE_SCOPES, KINDS, type History, type MemoryEdit, type MemoryView } from "../api";
import {
  areaOptions,
  enumOptions,
  navigate,
  openMemory,
  personOptions,
  renderChips,
  renderSaidBy,
  selectField,
  ViewBase,
} from "../base";
import type { MemoryConfirm } from "../confirm";
import { define } from "../define";
import { shared } from "../styles";
import { MAX_QUERY_CHARS } from "./search";

/** The edit form's values (owner/area only count for private/room). */
interface Draft {
  content: string;
  kind: string;
  scope: string;
  owner: string;
  area: string;
}

export class HmDetail extends ViewBase {
  static styles = [
    shared,
    css`
      ol.chain {
        list-style: none;
        margin: 0;
        padding: 0 0 0 16px;
        border-left: 2px solid var(--divider-color, #e0e0e0);
      }
      ol.chain li {
        position: relative;
        padding: 4px 0 12px 8px;
      }
      ol.chain li::before {
        content: "";
        position: absolute;
        left: -23px;
        top: 10px;
        width: 12px;
        height: 12px;
        border-radius: 50%;
        background: var(--card-background-color, #fff);
        border: 2px solid var(--divider-color, #e0e0e0);
      }
      ol.chain li.this::before {
        background: var(--primary-color, #03a9f4);
        border-color: var(--primary-color, #03a9f4);
      }
      .window {
        font-size: 13px;
        color: var(--secondary-text-color, #727272);
      }
    `,
  ];
  static properties = {
    memoryId: { attribute: false },
    data: { state: true },
    draft: { state: true },
    notice: { state: true },
    gone: { state: true },
  };

  memoryId = "";
  data?: History;
  draft?: Draft;
  notice = "";
  gone = false;

  protected start(): void {
    void this.load(this.memoryId);
  }

  protected willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has("memoryId") && changed.get("memoryId") && this.ctx) {
      this.notice = "";
      void this.load(this.memoryId); // another memory of the chain was opened
    }
  }

  async load(id: string): Promise<void> {
    this.draft = undefined;
    this.gone = false;
    const data = await this.run(() => this.ctx!.api.get(id));
    if (data) this.data = data;
  }

  private changed(): void {
    this.dispatchEvent(new CustomEvent("memory-changed", { bubbles: true, composed: true }));
  }

  private edit(m: MemoryView): void {
    this.notice = "";
    this.draft = { content: m.content, kind: m.kind, scope: m.scope, owner: m.owner_id ?? "", area: m.area_id ?? "" };
  }

  /** Only what changed goes to memory/update; the server re-embeds and re-checks the text. */
  private async save(e: Event): Promise<void> {
    e.preventDefault();
    const m = this.data!.memory;
    const d = this.draft!;
    const edit: MemoryEdit = {};
    if (d.content !== m.content) edit.content = d.content;
    if (d.kind !== m.kind) edit.kind = d.kind;
    if (d.scope !== m.scope) edit.scope = d.scope;
    if (d.scope === "private" && d.owner && d.owner !== m.owner_id) edit.owner = d.owner;
    if (d.scope === "room" && d.area && d.area !== m.area_id) edit.area = d.area;
    if (Object.keys(edit).length === 0) {
      this.draft = undefined;
      return;
    }
    const result = await this.run(() => this.ctx!.api.update(m.id, edit));
    if (result) {
      this.notice = this.ctx!.t("detail.saved");
      this.changed();
      await this.load(result.memory.id);
    }
  }

  private async forget(): Promise<void> {
    const t = this.ctx!.t;
    const m = this.data!.memory;
    const dialog = this.renderRoot.querySelector("hm-confirm") as MemoryConfirm;
    if (!(await dialog.ask(t("detail.forget_confirm", { content: m.content }), t("detail.forget"), t("common.cancel")))) {
      return;
    }
    if (await this.run(() => this.ctx!.api.forget(m.id))) {
      this.gone = true;
      this.notice = t("detail.forgotten");
      this.changed();
    }
  }

  private async review(approve: boolean): Promise<void> {
    const ctx = this.ctx!;
    const m = this.data!.memory;
    if (approve) {
      const result = await this.run(() => ctx.api.approve(m.id));
      if (result) {
        this.notice = ctx.t("pending.approved");
        this.changed();
        await this.load(result.memory.id);
      }
    } else if (await this.run(() => ctx.api.reject(m.id))) {
      this.gone = true;
      this.notice = ctx.t("pending.rejected");
      this.changed();
    }
  }

  private window(m: MemoryView): string {
    const t = this.ctx!.t;
    const from = this.ctx!.time(m.valid_from ?? m.created_at);
    return m.valid_to ? t("history.window", { from, to: this.ctx!.time(m.valid_to) }) : t("history.since", { from });
  }

  private renderFields(m: MemoryView): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const row = (label: string, value: unknown, testid: string) =>
      value === null || value === undefined || value === ""
        ? nothing
        : html`<dt>${label}</dt>
            <dd data-testid=${testid}>${value}</dd>`;
    return html`<dl class="fields">
      ${row(t("field.kind"), ctx.label("kind", m.kind), "field-kind")}
      ${row(t("field.scope"), ctx.label("scope", m.scope), "field-scope")}
      ${row(t("field.owner"), ctx.personName(m.owner_id), "field-owner")}
      ${row(t("field.area"), ctx.areaName(m.area_id), "field-area")}
      ${row(t("field.provenance"), ctx.label("provenance", m.provenance), "field-provenance")}
      ${row(t("field.status"), ctx.label("status", m.status), "field-status")}
      ${row(t("field.language"), m.language, "field-language")}
      ${row(t("field.sensitive"), m.sensitive ? t("common.yes") : t("common.no"), "field-sensitive")}
      ${row(t("field.importance"), ctx.number(m.importance), "field-importance")}
      ${row(t("field.confidence"), ctx.number(m.confidence), "field-confidence")}
      ${row(t("field.fact"), [m.subject, m.predicate, m.value].filter(Boolean).join(" · "), "field-fact")}
      ${row(t("field.source"), ctx.label("source", m.source), "field-source")}
      ${row(t("field.created"), ctx.time(m.created_at), "field-created")}
      ${row(t("field.updated"), ctx.time(m.updated_at), "field-updated")}
      ${row(t("field.valid"), this.window(m), "field-valid")}
      ${row(t("field.id"), m.id, "field-id")}
    </dl>`;
  }

  private renderEdit(): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const d = this.draft!;
    const set = (change: Partial<Draft>) => (this.draft = { ...d, ...change });
    return html`<form class="card" data-testid="edit-form" @submit=${(e: Event) => this.save(e)}>
      <h3>${t("detail.edit")}</h3>
      <label class="field" for="edit-content"
        >${t("field.content")}
        <textarea
          id="edit-content"
          data-testid="edit-content"
          required
          maxlength=${MAX_QUERY_CHARS}
          .value=${d.content}
          @input=${(e: Event) => set({ content: (e.target as HTMLTextAreaElement).value })}
        ></textarea>
      </label>
      <p class="help">${t("detail.edit_help")}</p>
      <div class="grid">
        ${selectField("edit-kind", t("field.kind"), d.kind, enumOptions(ctx, "kind", KINDS), (v) => set({ kind: v }))}
        ${selectField("edit-scope", t("field.scope"), d.scope, enumOptions(ctx, "scope", EDITABLE_SCOPES), (v) =>
          set({ scope: v }),
        )}
        ${d.scope === "private"
          ? selectField("edit-owner", t("field.owner"), d.owner, personOptions(ctx, t("detail.choose")), (v) =>
              set({ owner: v }),
            )
          : nothing}
        ${d.scope === "room"
          ? selectField("edit-area", t("field.area"), d.area, areaOptions(ctx, t("detail.choose")), (v) =>
              set({ area: v }),
            )
          : nothing}
      </div>
      <div class="actions">
        <button class="primary" type="submit" data-testid="edit-save" ?disabled=${this.busy}>${t("common.save")}</button>
        <button type="button" data-testid="edit-cancel" @click=${() => (this.draft = undefined)}>
          ${t("common.cancel")}
        </button>
      </div>
    </form>`;
  }

  private renderChain(): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const { memory, older, newer } = this.data!;
    const byTime = (a: MemoryView, b: MemoryView) =>
      (b.valid_from ?? b.created_at).localeCompare(a.valid_from ?? a.created_at);
    const chain = [...[...newer].sort(byTime), memory, ...[...older].sort(byTime)];
    if (chain.length === 1) return html`<p class="muted" data-testid="history-single">${t("history.single")}</p>`;
    return html`<ol class="chain" data-testid="history">
      ${chain.map(
        (m) =>
          html`<li
            class=${m.id === memory.id ? "this" : ""}
            data-testid="history-item"
            data-memory-id=${m.id}
            data-relation=${m.id === memory.id ? "this" : newer.includes(m) ? "newer" : "older"}
          >
            <div class="content">${m.content}</div>
            <div class="window" data-testid="history-window">${ctx.label("status", m.status)} · ${this.window(m)}</div>
            ${renderSaidBy(ctx, m.said_by)}
            ${m.id === memory.id
              ? nothing
              : html`<button class="link" data-testid="history-open" @click=${() => openMemory(this, m.id)}>
                  ${t("memory.open")}
                </button>`}
          </li>`,
      )}
    </ol>`;
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    const m = this.data?.memory;
    return html`<div class="row">
        <button data-testid="detail-back" @click=${() => navigate(this, "back")}>← ${t("common.back")}</button>
      </div>
      <hm-confirm></hm-confirm>
      ${this.notice ? html`<div class="notice" role="status" data-testid="notice">${this.notice}</div>` : nothing}
      ${this.renderError()}
      ${m && !this.gone
        ? html`<div class="card" data-testid="detail" data-memory-id=${m.id}>
              <h2>${t("detail.title")}</h2>
              <div class="content" data-testid="detail-content">${m.content}</div>
              ${renderChips(ctx, m)}
              <h3>${t("detail.said_by")}</h3>
              ${renderSaidBy(ctx, m.said_by)} ${this.renderFields(m)}
              <div class="actions">
                ${m.status === "pending"
                  ? html`<button class="primary" data-testid="detail-approve" ?disabled=${this.busy} @click=${() => this.review(true)}>
                        ${t("pending.approve")}
                      </button>
                      <button data-testid="detail-reject" ?disabled=${this.busy} @click=${() => this.review(false)}>
                        ${t("pending.reject")}
                      </button>`
                  : nothing}
                <button data-testid="detail-edit" ?disabled=${this.busy || !!this.draft} @click=${() => this.edit(m)}>
                  ${t("detail.edit")}
                </button>
                <button class="danger" data-testid="detail-forget" ?disabled=${this.busy} @click=${() => this.forget()}>
                  ${t("detail.forget")}
                </button>
              </div>
            </div>
            ${this.draft ? this.renderEdit() : nothing}
            <div class="card">
              <h3>${t("history.title")}</h3>
              ${this.renderChain()}
            </div>`
        : this.busy
          ? html`<p class="muted">${t("common.loading")}</p>`
          : nothing}`;
  }
}

define("hm-detail", HmDetail);
