// <hm-overview>: the counters at the top — memories by scope, provenance and status, what awaits
// review, tombstones, the last consolidation, the store and the encoder in use.
import { html, nothing, type TemplateResult } from "lit";
import type { Overview } from "../api";
import { navigate, ViewBase } from "../base";
import { define } from "../define";

export class HmOverview extends ViewBase {
  static properties = { data: { state: true } };
  data?: Overview;

  protected start(): void {
    void this.load();
  }

  async load(): Promise<void> {
    this.data = (await this.run(() => this.ctx!.api.overview())) ?? this.data;
  }

  private counts(group: string, counts: Record<string, number>): TemplateResult {
    const t = this.ctx!.t;
    const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
    return html`<div class="card">
      <h3>${t(`overview.by_${group}`)}</h3>
      ${entries.length === 0
        ? html`<p class="muted">${t("overview.none")}</p>`
        : html`<div class="counts">
            ${entries.map(
              ([key, n]) =>
                html`<div class="count" data-testid="overview-${group}-${key}">
                  <span class="n">${n}</span><span class="label">${this.ctx!.label(group, key)}</span>
                </div>`,
            )}
          </div>`}
    </div>`;
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    const d = this.data;
    return html`${this.renderError()}
    ${d
      ? html`<div class="card">
            <div class="counts">
              <div class="count" data-testid="overview-pending">
                <span class="n">${d.counts.pending}</span><span class="label">${t("overview.pending")}</span>
              </div>
              <div class="count" data-testid="overview-tombstones">
                <span class="n">${d.counts.tombstones}</span><span class="label">${t("overview.tombstones")}</span>
              </div>
            </div>
            <div class="actions">
              ${d.counts.pending > 0
                ? html`<button class="primary" data-testid="overview-review" @click=${() => navigate(this, "pending")}>
                    ${t("overview.review")}
                  </button>`
                : nothing}
              <button data-testid="overview-refresh" ?disabled=${this.busy} @click=${() => this.load()}>
                ${t("common.refresh")}
              </button>
            </div>
          </div>
          ${this.counts("scope", d.counts.by_scope)} ${this.counts("provenance", d.counts.by_provenance)}
          ${this.counts("status", d.counts.by_status)}
          <div class="card">
            <dl class="fields">
              <dt>${t("overview.last_consolidation")}</dt>
              <dd data-testid="overview-last-consolidation">
                ${d.last_consolidation ? ctx.time(d.last_consolidation) : t("overview.never")}
              </dd>
              <dt>${t("overview.store")}</dt>
              <dd data-testid="overview-store">${ctx.label("store", d.store.kind)} — ${d.store.where}</dd>
              <dt>${t("overview.encoder")}</dt>
              <dd data-testid="overview-encoder">
                ${d.encoder.provider} · ${d.encoder.model} · ${t("overview.dimension", { n: d.encoder.dimension })}
              </dd>
            </dl>
          </div>`
      : this.busy
        ? html`<p class="muted">${t("common.loading")}</p>`
        : nothing}`;
  }
}

define("hm-overview", HmOverview);
