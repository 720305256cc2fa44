// <hm-settings>: the learning switches in one place — the config entry's options, the same the
// options flow edits (memory/settings, memory/settings/update).
import { html, nothing } from "lit";
import type { Settings } from "../api";
import { ViewBase } from "../base";
import { define } from "../define";

export const RETENTION_DAYS = { min: 1, max: 3650 }; // TRANSCRIPT_RETENTION_RANGE of the integration

export class HmSettings extends ViewBase {
  static properties = {
    saved: { state: true },
    draft: { state: true },
    notice: { state: true },
    retention: { state: true },
  };
  saved?: Settings;
  draft?: Settings;
  notice = "";
  /** The retention field as typed; the draft takes it only when it is a whole number in range. */
  retention = "";

  protected start(): void {
    void this.load();
  }

  async load(): Promise<void> {
    const settings = await this.run(() => this.ctx!.api.settings());
    if (settings) this.show(settings);
  }

  private show(settings: Settings): void {
    this.saved = settings;
    this.draft = { ...settings, learning_opt_out_areas: [...settings.learning_opt_out_areas] };
    this.retention = String(settings.transcript_retention_days);
  }

  /** The retention days typed, when a whole number in RETENTION_DAYS; else undefined. */
  private retentionDays(): number | undefined {
    const text = this.retention.trim();
    if (!/^\d+$/.test(text)) return undefined;
    const days = Number(text);
    return days >= RETENTION_DAYS.min && days <= RETENTION_DAYS.max ? days : undefined;
  }

  private typedRetention(text: string): void {
    this.retention = text;
    const days = this.retentionDays();
    if (days !== undefined) this.set({ transcript_retention_days: days });
  }

  /** The keys whose draft value differs from the saved one. */
  private changes(): Partial<Settings> {
    const out: Record<string, unknown> = {};
    const d = this.draft!;
    const s = this.saved!;
    for (const key of Object.keys(d) as (keyof Settings)[]) {
      const a = d[key];
      const b = s[key];
      const same = Array.isArray(a) && Array.isArray(b) ? [...a].sort().join("\n") === [...b].sort().join("\n") : a === b;
      if (!same) out[key] = a;
    }
    return out as Partial<Settings>;
  }

  private set(change: Partial<Settings>): void {
    this.notice = "";
    this.draft = { ...this.draft!, ...change };
  }

  private toggleArea(areaId: string, on: boolean): void {
    const areas = this.draft!.learning_opt_out_areas.filter((a) => a !== areaId);
    this.set({ learning_opt_out_areas: on ? [...areas, areaId] : areas });
  }

  private async save(e: Event): Promise<void> {
    e.preventDefault();
    const change = this.changes();
    // an invalid field saves nothing (not the other changes either): its error says why
    if (this.retentionDays() === undefined || Object.keys(change).length === 0) return;
    const settings = await this.run(() => this.ctx!.api.updateSettings(change));
    if (settings) {
      this.show(settings);
      this.notice = this.ctx!.t("settings.saved");
    }
  }

  private check(testid: string, key: "learning" | "review_extracted" | "cloud_personal", label: string, help: string) {
    return html`<label class="check" for=${testid}>
      <input
        id=${testid}
        data-testid=${testid}
        type="checkbox"
        .checked=${this.draft![key]}
        @change=${(e: Event) => this.set({ [key]: (e.target as HTMLInputElement).checked } as Partial<Settings>)}
      />
      <span><span>${label}</span><br /><span class="help">${help}</span></span>
    </label>`;
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    const d = this.draft;
    if (!d) {
      return html`${this.renderError()}${this.busy ? html`<p class="muted">${t("common.loading")}</p>` : nothing}`;
    }
    // opt-out areas that no longer exist stay listed (by id) so they can be removed
    const areas = [
      ...ctx.areas.map((a) => ({ id: a.area_id, name: a.name })),
      ...d.learning_opt_out_areas.filter((id) => !ctx.areas.some((a) => a.area_id === id)).map((id) => ({ id, name: id })),
    ];
    const dirty = Object.keys(this.changes()).length > 0;
    const retentionInvalid = this.retentionDays() === undefined;
    return html`${this.renderError()}
      ${this.notice ? html`<div class="notice" role="status" data-testid="settings-saved">${this.notice}</div>` : nothing}
      <form class="card" data-testid="settings-form" novalidate @submit=${(e: Event) => this.save(e)}>
        <h2>${t("settings.title")}</h2>
        <p class="help">${t("settings.help")}</p>
        ${this.check("settings-learning", "learning", t("settings.learning"), t("settings.learning_help"))}
        <fieldset class="card">
          <legend>${t("settings.opt_out")}</legend>
          <p class="help">${t("settings.opt_out_help")}</p>
          ${areas.length === 0
            ? html`<p class="muted">${t("settings.no_areas")}</p>`
            : areas.map(
                (a) => html`<label class="check" for="settings-optout-${a.id}">
                  <input
                    id="settings-optout-${a.id}"
                    data-testid="settings-optout-${a.id}"
                    type="checkbox"
                    .checked=${d.learning_opt_out_areas.includes(a.id)}
                    @change=${(e: Event) => this.toggleArea(a.id, (e.target as HTMLInputElement).checked)}
                  />
                  <span>${a.name}</span>
                </label>`,
              )}
        </fieldset>
        ${this.check("settings-review", "review_extracted", t("settings.review"), t("settings.review_help"))}
        ${this.check("settings-cloud", "cloud_personal", t("settings.cloud"), t("settings.cloud_help"))}
        <label class="field" for="settings-retention"
          >${t("settings.retention")}
          <input
            id="settings-retention"
            data-testid="settings-retention"
            type="number"
            inputmode="numeric"
            required
            min=${RETENTION_DAYS.min}
            max=${RETENTION_DAYS.max}
            aria-invalid=${retentionInvalid ? "true" : "false"}
            aria-describedby=${retentionInvalid ? "settings-retention-error" : "settings-retention-help"}
            .value=${this.retention}
            @input=${(e: Event) => this.typedRetention((e.target as HTMLInputElement).value)}
          />
        </label>
        ${retentionInvalid
          ? html`<p class="error" id="settings-retention-error" role="alert" data-testid="settings-retention-error">
              ${t("settings.retention_invalid", {
                field: t("settings.retention"),
                min: RETENTION_DAYS.min,
                max: RETENTION_DAYS.max,
              })}
            </p>`
          : nothing}
        <p class="help" id="settings-retention-help">
          ${t("settings.retention_help", { min: RETENTION_DAYS.min, max: RETENTION_DAYS.max })}
        </p>
        <div class="actions">
          <button class="primary" type="submit" data-testid="settings-save" ?disabled=${this.busy || !dirty || retentionInvalid}>
            ${t("common.save")}
          </button>
          <button type="button" data-testid="settings-reset" ?disabled=${this.busy || (!dirty && !retentionInvalid)} @click=${() => this.load()}>
            ${t("settings.reset")}
          </button>
        </div>
      </form>`;
  }
}

define("hm-settings", HmSettings);
