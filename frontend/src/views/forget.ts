// <hm-forget>: forget everything of one person (with confirmation), and the tombstones — what
// keeps a forgotten memory from being learned again (they hold no text) — with "lift" to allow it.
import { html, nothing } from "lit";
import type { Tombstone } from "../api";
import { personOptions, renderPager, selectField, ViewBase } from "../base";
import type { MemoryConfirm } from "../confirm";
import { define } from "../define";

const TOMBSTONES_PER_PAGE = 50;

export class HmForget extends ViewBase {
  static properties = {
    person: { state: true },
    notice: { state: true },
    tombstones: { state: true },
    total: { state: true },
    offset: { state: true },
  };

  person = "";
  notice = "";
  tombstones?: Tombstone[];
  total = 0;
  offset = 0;

  protected start(): void {
    void this.load(0);
  }

  async load(offset: number): Promise<void> {
    const page = await this.run(() => this.ctx!.api.tombstones(offset, TOMBSTONES_PER_PAGE));
    if (page) {
      this.tombstones = page.tombstones;
      this.total = page.total;
      this.offset = offset;
    }
  }

  private async forgetPerson(): Promise<void> {
    const ctx = this.ctx!;
    const t = ctx.t;
    const name = ctx.personName(this.person);
    const dialog = this.renderRoot.querySelector("hm-confirm") as MemoryConfirm;
    if (!(await dialog.ask(t("forget.person_confirm", { person: name }), t("forget.person_submit"), t("common.cancel")))) {
      return;
    }
    const result = await this.run(() => ctx.api.forgetPerson(this.person));
    if (result) {
      this.notice = t("forget.person_done", { n: result.forgotten, person: name });
      this.dispatchEvent(new CustomEvent("memory-changed", { bubbles: true, composed: true }));
      await this.load(0);
    }
  }

  private async lift(stone: Tombstone): Promise<void> {
    if (await this.run(() => this.ctx!.api.liftTombstone(stone.id))) {
      this.notice = this.ctx!.t("tombstones.lifted");
      await this.load(this.offset);
    }
  }

  private whom(stone: Tombstone): string {
    const ctx = this.ctx!;
    if (stone.scope === "private" && stone.owner_id) return ctx.t("scope.private_of", { person: ctx.personName(stone.owner_id) });
    if (stone.scope === "room" && stone.area_id) return ctx.t("scope.room_of", { room: ctx.areaName(stone.area_id) });
    return ctx.label("scope", stone.scope);
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    return html`<hm-confirm></hm-confirm>
      ${this.notice ? html`<div class="notice" role="status" data-testid="notice">${this.notice}</div>` : nothing}
      ${this.renderError()}
      <div class="card">
        <h2>${t("forget.person_title")}</h2>
        <p class="help">${t("forget.person_help")}</p>
        <div class="grid">
          ${selectField("forget-person", t("field.person"), this.person, personOptions(ctx, t("detail.choose")), (v) => (this.person = v))}
        </div>
        <div class="actions">
          <button
            class="danger"
            data-testid="forget-person-submit"
            ?disabled=${!this.person || this.busy}
            @click=${() => this.forgetPerson()}
          >
            ${t("forget.person_submit")}
          </button>
        </div>
      </div>
      <div class="card">
        <h2>${t("tombstones.title")}</h2>
        <p class="help">${t("tombstones.help")}</p>
        ${this.tombstones === undefined
          ? nothing
          : this.tombstones.length === 0
            ? html`<p class="muted" data-testid="tombstones-empty">${t("tombstones.empty")}</p>`
            : html`${renderPager(ctx, "tombstones", this.offset, TOMBSTONES_PER_PAGE, this.total, (o) => this.load(o))}
                <ul class="plain" data-testid="tombstone-list">
                  ${this.tombstones.map(
                    (s) =>
                      html`<li class="card" data-testid="tombstone-item" data-tombstone-id=${s.id}>
                        <div>${this.whom(s)}</div>
                        <div class="said-by">
                          ${t("tombstones.created", { time: ctx.time(s.created_at) })}
                          ${s.lifted_at ? html` · ${t("tombstones.lifted_at", { time: ctx.time(s.lifted_at) })}` : nothing}
                        </div>
                        ${s.lifted_at
                          ? nothing
                          : html`<div class="actions">
                              <button data-testid="tombstone-lift" ?disabled=${this.busy} @click=${() => this.lift(s)}>
                                ${t("tombstones.lift")}
                              </button>
                            </div>`}
                      </li>`,
                  )}
                </ul>`}
      </div>`;
  }
}

define("hm-forget", HmForget);
