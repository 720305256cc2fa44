// <hm-pending>: what learning saved for review — approve (it is recalled from then on) or reject
// (forgotten, with a tombstone so it is not learned again). When approving would supersede a
// saved fact, that fact's current text is shown struck through.
import { html, nothing, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import type { PendingItem } from "../api";
import { renderMemory, renderSaidBy, ViewBase } from "../base";
import { define } from "../define";

export class HmPending extends ViewBase {
  static properties = { items: { state: true }, notice: { state: true } };
  items?: PendingItem[];
  notice = "";

  protected start(): void {
    void this.load();
  }

  async load(): Promise<void> {
    const result = await this.run(() => this.ctx!.api.pending());
    if (result) this.items = result.pending;
  }

  private async decide(item: PendingItem, approve: boolean): Promise<void> {
    const api = this.ctx!.api;
    const id = item.memory.id;
    const done = await this.run<unknown>(() => (approve ? api.approve(id) : api.reject(id)));
    if (done) {
      this.notice = this.ctx!.t(approve ? "pending.approved" : "pending.rejected");
      this.dispatchEvent(new CustomEvent("memory-changed", { bubbles: true, composed: true }));
      await this.load(); // approving one may settle what another would replace
    }
  }

  private renderItem(item: PendingItem): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const extra = html`${item.replaces.length
        ? html`<div class="replaces" data-testid="pending-replaces">
            <p class="help">${t("pending.replaces")}</p>
            <ul class="plain">
              ${item.replaces.map(
                (r) =>
                  html`<li data-memory-id=${r.id}>
                    <del class="content" data-testid="replaced-value">${r.content}</del>
                    ${renderSaidBy(ctx, r.said_by)}
                  </li>`,
              )}
            </ul>
          </div>`
        : nothing}
      <div class="actions">
        <button class="primary" data-testid="pending-approve" ?disabled=${this.busy} @click=${() => this.decide(item, true)}>
          ${t("pending.approve")}
        </button>
        <button data-testid="pending-reject" ?disabled=${this.busy} @click=${() => this.decide(item, false)}>
          ${t("pending.reject")}
        </button>
      </div>`;
    return renderMemory(ctx, this, item.memory, extra, "pending-item");
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    return html`<div class="card">
        <h2>${t("pending.title")}</h2>
        <p class="help">${t("pending.help")}</p>
      </div>
      ${this.notice ? html`<div class="notice" role="status" data-testid="notice">${this.notice}</div>` : nothing}
      ${this.renderError()}
      ${this.items === undefined
        ? this.busy
          ? html`<p class="muted">${t("common.loading")}</p>`
          : nothing
        : this.items.length === 0
          ? html`<p class="muted" data-testid="pending-empty">${t("pending.empty")}</p>`
          : html`<ul class="plain" data-testid="pending-list">
              ${repeat(this.items, (i) => i.memory.id, (i) => this.renderItem(i))}
            </ul>`}`;
  }
}

define("hm-pending", HmPending);
