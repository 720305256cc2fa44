// <hm-settings>: the learning switches in one place — the config entry's options, the same the
// options flow edits (memory/settings, memory/settings/update).
import { html, nothing } from "lit";
import type { Settings } from "../api";
import { ViewBase } from "../base";
import { define } from "../define";

export const RETENTION_DAYS = { min: 1, max: 3650 }; // TRANSCRIPT_RETENTION_RANGE of the integration

export class HmSettings extends ViewBase {
  static properties = { saved: { state: true }, draft: { state: true }, notice: { state: true } };
  saved?: Settings;
  draft?: Settings;
  notice = "";

  protected start(): void {
    void this.load();
  }

  async load(): Promise<void> {
    const settings = await this.run(() => this.ctx!.api.settings());
    if (settings) {
      this.saved = settings;
      this.draft = { ...settings, learning_opt_out_areas: [...settings.learning_opt_out_areas] };
    }
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
    if (Object.keys(change).length === 0) return;
    const settings = await this.run(() => this.ctx!.api.updateSettings(change));
    if (settings) {
      this.saved = settings;
      this.draft = { ...settings, learning_opt_out_areas: [...settings.learning_opt_out_areas] };
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
    return html`${this.renderError()}
      ${this.notice ? html`<div class="notice" role="status" data-testid="settings-saved">${this.notice}</div>` : nothing}
      <form class="card" data-testid="settings-form" @submit=${(e: Event) => this.save(e)}>
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
            .value=${String(d.transcript_retention_days)}
            @change=${(e: Event) => this.set({ transcript_retention_days: Number((e.target as HTMLInputElement).value) })}
          />
        </label>
        <p class="help">${t("settings.retention_help", { min: RETENTION_DAYS.min, max: RETENTION_DAYS.max })}</p>
        <div class="actions">
          <button class="primary" type="submit" data-testid="settings-save" ?disabled=${this.busy || !dirty}>
            ${t("common.save")}
          </button>
          <button type="button" data-testid="settings-reset" ?disabled=${this.busy || !dirty} @click=${() => this.load()}>
            ${t("settings.reset")}
          </button>
        </div>
      </form>`;
  }
}

define("hm-settings", HmSettings);
