// <hm-list>: every memory, newest first, filtered by kind, scope, person, area, provenance,
// status, language and who said it, a page at a time. Cards are keyed by memory id (lit's repeat,
// as in search and review): a card clicked while the list reloads opens its own memory, never the
// one re-rendered into its place.
import { html, nothing } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { KINDS, PROVENANCES, SCOPES, STATUSES, type ListFilters, type MemoryPage } from "../api";
import { areaOptions, enumOptions, personOptions, renderMemory, renderPager, selectField, ViewBase } from "../base";
import { define } from "../define";

export const PAGE_SIZES = [25, 50, 100, 200];

export class HmList extends ViewBase {
  static properties = {
    filters: { state: true },
    page: { state: true },
    limit: { state: true },
  };

  filters: ListFilters = { status: "active" };
  page?: MemoryPage;
  limit = 50;
  private request = 0;

  protected start(): void {
    void this.load(0);
  }

  async load(offset: number): Promise<void> {
    const filters = { ...this.filters, language: this.filters.language?.trim() };
    const request = ++this.request; // only the newest answer is shown
    const page = await this.run(() => this.ctx!.api.list(filters, offset, this.limit));
    if (page && request === this.request) this.page = page;
  }

  private set(key: keyof ListFilters, value: string): void {
    this.filters = { ...this.filters, [key]: value };
    void this.load(0);
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    const f = this.filters;
    const any = t("filter.any");
    return html`<div class="card">
        <h2>${t("list.title")}</h2>
        <div class="grid" role="group" aria-label=${t("list.filters")}>
          ${selectField("filter-kind", t("field.kind"), f.kind ?? "", enumOptions(ctx, "kind", KINDS, any), (v) =>
            this.set("kind", v),
          )}
          ${selectField("filter-scope", t("field.scope"), f.scope ?? "", enumOptions(ctx, "scope", SCOPES, any), (v) =>
            this.set("scope", v),
          )}
          ${selectField("filter-person", t("filter.person"), f.person ?? "", personOptions(ctx, any), (v) =>
            this.set("person", v),
          )}
          ${selectField("filter-area", t("field.area"), f.area ?? "", areaOptions(ctx, any), (v) => this.set("area", v))}
          ${selectField(
            "filter-provenance",
            t("field.provenance"),
            f.provenance ?? "",
            enumOptions(ctx, "provenance", PROVENANCES, any),
            (v) => this.set("provenance", v),
          )}
          ${selectField(
            "filter-status",
            t("field.status"),
            f.status ?? "active",
            [...enumOptions(ctx, "status", STATUSES), { value: "any", label: any }],
            (v) => this.set("status", v),
          )}
          <label class="field" for="filter-language"
            >${t("field.language")}
            <input
              id="filter-language"
              data-testid="filter-language"
              type="text"
              inputmode="text"
              autocomplete="off"
              spellcheck="false"
              placeholder=${t("filter.language_hint")}
              .value=${f.language ?? ""}
              @change=${(e: Event) => this.set("language", (e.target as HTMLInputElement).value)}
            />
          </label>
          ${selectField("filter-said-by", t("field.said_by"), f.said_by ?? "", personOptions(ctx, any), (v) =>
            this.set("said_by", v),
          )}
          ${selectField(
            "filter-limit",
            t("page.size"),
            String(this.limit),
            PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) })),
            (v) => {
              this.limit = Number(v);
              void this.load(0);
            },
          )}
        </div>
      </div>
      ${this.renderError()}
      ${this.page
        ? html`${renderPager(ctx, "list", this.page.offset, this.page.limit, this.page.total, (o) => this.load(o))}
            ${this.page.memories.length === 0
              ? html`<p class="muted" data-testid="list-empty">${t("list.empty")}</p>`
              : html`<ul class="plain" data-testid="memory-list">
                  ${repeat(this.page.memories, (m) => m.id, (m) => renderMemory(ctx, this, m))}
                </ul>`}
            ${this.page.total > this.page.limit
              ? renderPager(ctx, "list-bottom", this.page.offset, this.page.limit, this.page.total, (o) => this.load(o))
              : nothing}`
        : this.busy
          ? html`<p class="muted">${t("common.loading")}</p>`
          : nothing}`;
  }
}

define("hm-list", HmList);
