// <hm-consolidate>: consolidation on demand — first what it would do (a dry run: nothing
// changes), then the run itself, with its report.
import { html, nothing, type TemplateResult } from "lit";
import type { Brief, ConsolidationReport } from "../api";
import { openMemory, ViewBase } from "../base";
import { define } from "../define";

export class HmConsolidate extends ViewBase {
  static properties = { plan: { state: true }, done: { state: true } };
  plan?: ConsolidationReport;
  done?: ConsolidationReport;

  private async dryRun(): Promise<void> {
    this.done = undefined;
    const plan = await this.run(() => this.ctx!.api.consolidate(true));
    if (plan) this.plan = plan;
  }

  private async runNow(): Promise<void> {
    const done = await this.run(() => this.ctx!.api.consolidate(false));
    if (done) {
      this.done = done;
      this.plan = undefined;
      this.dispatchEvent(new CustomEvent("memory-changed", { bubbles: true, composed: true }));
    }
  }

  private link(m: Brief): TemplateResult {
    return html`<button class="link" @click=${() => openMemory(this, m.id)}>${m.content ?? m.id}</button>`;
  }

  private renderCounts(r: ConsolidationReport): TemplateResult {
    const t = this.ctx!.t;
    const count = (key: string, n: number) =>
      html`<div class="count" data-testid="consolidate-${key}"><span class="n">${n}</span><span class="label">${t(`consolidate.${key}`)}</span></div>`;
    return html`<div class="counts">
      ${count("merged", r.merged)} ${count("superseded", r.superseded)} ${count("pruned", r.pruned)}
      ${r.judged !== undefined ? count("judged", r.judged) : nothing} ${count("conflicts", r.conflicts.length)}
    </div>`;
  }

  private renderConflicts(r: ConsolidationReport): TemplateResult | typeof nothing {
    const ctx = this.ctx!;
    if (!r.conflicts.length) return nothing;
    return html`<h3>${ctx.t("consolidate.conflicts_title")}</h3>
      <ul data-testid="consolidate-conflict-list">
        ${r.conflicts.map(
          (c) =>
            html`<li>
              ${this.link(c.older)} → ${this.link(c.newer)}
              <span class="muted">(${ctx.t("consolidate.similarity", { value: ctx.number(c.similarity) })})</span>
            </li>`,
        )}
      </ul>`;
  }

  private renderPlan(r: ConsolidationReport): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const changes = r.changes ?? [];
    const prune = r.prune ?? [];
    return html`<div class="card" data-testid="consolidate-plan">
      <h2>${t("consolidate.plan_title")}</h2>
      ${this.renderCounts(r)}
      ${changes.length === 0 && prune.length === 0 && r.conflicts.length === 0
        ? html`<p class="muted" data-testid="consolidate-nothing">${t("consolidate.nothing")}</p>`
        : nothing}
      ${changes.length
        ? html`<h3>${t("consolidate.changes_title")}</h3>
            <ul data-testid="consolidate-changes">
              ${changes.map(
                (c) =>
                  html`<li data-memory-id=${c.id}>
                    ${t(c.status === "archived" ? "consolidate.would_merge" : "consolidate.would_supersede")}:
                    ${this.link(c)} → ${this.link(c.by)}
                  </li>`,
              )}
            </ul>`
        : nothing}
      ${prune.length
        ? html`<h3>${t("consolidate.prune_title")}</h3>
            <ul data-testid="consolidate-prune">
              ${prune.map((id) => html`<li>${this.link({ id, content: null })}</li>`)}
            </ul>`
        : nothing}
      ${this.renderConflicts(r)}
      <div class="actions">
        <button class="primary" data-testid="consolidate-run" ?disabled=${this.busy} @click=${() => this.runNow()}>
          ${t("consolidate.run")}
        </button>
      </div>
    </div>`;
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    return html`<div class="card">
        <h2>${t("consolidate.title")}</h2>
        <p class="help">${t("consolidate.help")}</p>
        <div class="actions">
          <button data-testid="consolidate-dry-run" ?disabled=${this.busy} @click=${() => this.dryRun()}>
            ${t("consolidate.dry_run")}
          </button>
        </div>
      </div>
      ${this.renderError()} ${this.plan ? this.renderPlan(this.plan) : nothing}
      ${this.done
        ? html`<div class="card" data-testid="consolidate-done">
            <h2>${t("consolidate.done_title")}</h2>
            ${this.renderCounts(this.done)} ${this.renderConflicts(this.done)}
          </div>`
        : nothing}`;
  }
}

define("hm-consolidate", HmConsolidate);
