// <hm-transfer>: export every memory (with history and provenance; tombstones as counts only)
// as a JSON file a person can read, and import such a file — validated and deduplicated by the
// server, nothing overwritten — with its report.
import { html, nothing } from "lit";
import { exceptionsLocalize, exceptionText, type ImportReport, type Localize } from "../api";
import { ViewBase } from "../base";
import { define } from "../define";

/** household-memory-2026-12-01.json (the day of the export, UTC). */
export function exportFileName(exportedAt: unknown): string {
  const day = typeof exportedAt === "string" && /^\d{4}-\d{2}-\d{2}/.test(exportedAt) ? exportedAt.slice(0, 10) : "export";
  return `household-memory-${day}.json`;
}

export class HmTransfer extends ViewBase {
  static properties = { exported: { state: true }, report: { state: true }, progress: { state: true } };
  exported?: { count: number; file: string };
  report?: ImportReport;
  /** Memories handled so far by the import under way (from the server's progress events). */
  progress?: { done: number; total: number };
  private localize?: Localize;

  /** Why an entry was refused, in the user's language: the integration's translated error naming
   * the export's field when the server names it, else the panel's own text for the reason —
   * never the raw reason key. */
  private reasonText(x: ImportReport["rejected"][number]): string {
    const t = this.ctx!.t;
    if (x.field) {
      const text = exceptionText(this.localize, x.reason, { field: x.field });
      if (text) return text;
    }
    const key = `transfer.reason.${x.reason}`;
    const own = t(key);
    return own !== key ? own : t("transfer.reason.other");
  }

  private async exportAll(): Promise<void> {
    const data = await this.run(() => this.ctx!.api.exportAll());
    if (!data) return;
    const file = exportFileName(data.exported_at);
    const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = file;
    a.hidden = true;
    this.renderRoot.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
    this.exported = { count: Array.isArray(data.memories) ? data.memories.length : 0, file };
  }

  private async importFile(e: Event): Promise<void> {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    this.report = undefined;
    let data: unknown;
    try {
      data = JSON.parse(await file.text());
    } catch {
      this.error = this.ctx!.t("transfer.invalid_json", { file: file.name });
      input.value = "";
      return;
    }
    const report = await this.run(() =>
      this.ctx!.api.importAll(data, (done, total) => {
        this.progress = { done, total };
      }),
    );
    this.progress = undefined;
    input.value = ""; // the same file may be chosen again
    if (report) {
      if (report.rejected.length) this.localize = await exceptionsLocalize(this.ctx!.hass);
      this.report = report;
      this.dispatchEvent(new CustomEvent("memory-changed", { bubbles: true, composed: true }));
    }
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    const r = this.report;
    return html`${this.renderError()}
      <div class="card">
        <h2>${t("transfer.export_title")}</h2>
        <p class="help">${t("transfer.export_help")}</p>
        <div class="actions">
          <button class="primary" data-testid="export-download" ?disabled=${this.busy} @click=${() => this.exportAll()}>
            ${t("transfer.export")}
          </button>
        </div>
        ${this.exported
          ? html`<p class="notice" role="status" data-testid="export-done">
              ${t("transfer.exported", { n: this.exported.count, file: this.exported.file })}
            </p>`
          : nothing}
      </div>
      <div class="card">
        <h2>${t("transfer.import_title")}</h2>
        <p class="help">${t("transfer.import_help")}</p>
        <label class="field" for="import-file"
          >${t("transfer.choose_file")}
          <input
            id="import-file"
            data-testid="import-file"
            type="file"
            accept=".json,application/json"
            ?disabled=${this.busy}
            @change=${(e: Event) => this.importFile(e)}
          />
        </label>
        ${this.progress
          ? html`<p class="notice" role="status" data-testid="import-progress">
              <progress max=${this.progress.total} value=${this.progress.done}></progress>
              ${t("transfer.importing", { done: this.progress.done, total: this.progress.total })}
            </p>`
          : nothing}
        ${r
          ? html`<div class="notice" role="status" data-testid="import-report">
              <p data-testid="import-created">${t("transfer.created", { n: r.created })}</p>
              <p data-testid="import-duplicates">${t("transfer.duplicates", { n: r.duplicates })}</p>
              <p data-testid="import-rejected">${t("transfer.rejected", { n: r.rejected.length })}</p>
              ${r.rejected.length
                ? html`<ul>
                    ${r.rejected.map(
                      (x) => html`<li data-testid="import-rejected-item" data-reason=${x.reason}>${t("transfer.rejected_item", { index: x.index + 1, reason: this.reasonText(x) })}</li>`,
                    )}
                  </ul>`
                : nothing}
            </div>`
          : nothing}
      </div>`;
  }
}

define("hm-transfer", HmTransfer);
