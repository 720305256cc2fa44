// <hm-search>: "what would Anna hear in the kitchen?" — the recall the assistant runs for that
// speaker in that room, each hit with the factors that made it surface; below, what recall found
// but the assistant would keep from this speaker (sensitive memories, an unknown speaker).
import { css, html, nothing, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { styleMap } from "lit/directives/style-map.js";
import type { SearchHit } from "../api";
import { areaOptions, openMemory, personOptions, renderMemory, selectField, ViewBase } from "../base";
import { define } from "../define";
import { shared } from "../styles";

export const MAX_QUERY_CHARS = 1000; // MAX_CONTENT_CHARS of the integration

export class HmSearch extends ViewBase {
  static styles = [
    shared,
    css`
      table.factors {
        width: 100%;
        border-collapse: collapse;
        font-size: 13px;
        margin-top: 8px;
      }
      table.factors caption {
        text-align: left;
      }
      table.factors th {
        text-align: left;
        font-weight: 400;
        color: var(--secondary-text-color, #727272);
        padding: 2px 8px 2px 0;
        white-space: nowrap;
      }
      table.factors td.value {
        text-align: right;
        font-variant-numeric: tabular-nums;
        padding: 2px 8px;
        white-space: nowrap;
      }
      table.factors td.bar {
        width: 100%;
      }
      .bar span {
        display: block;
        height: 8px;
        border-radius: 4px;
        background: var(--primary-color, #03a9f4);
        min-width: 2px;
      }
      .bar span.negative {
        background: var(--error-color, #db4437);
      }
      .score {
        font-size: 13px;
        color: var(--secondary-text-color, #727272);
      }
      section.withheld {
        margin-top: 16px;
      }
      section.withheld h2 {
        margin: 0 0 4px;
      }
      section.withheld li.card {
        border-left: 4px solid var(--warning-color, #ffa600);
      }
      .withheld-mark {
        display: inline-block;
        font-size: 13px;
        font-weight: 500;
        color: var(--warning-color, #ffa600);
        margin-top: 4px;
      }
    `,
  ];
  static properties = {
    query: { state: true },
    person: { state: true },
    area: { state: true },
    language: { state: true },
    limit: { state: true },
    hits: { state: true },
    withheld: { state: true },
  };

  query = "";
  person = "";
  area = "";
  language = "";
  limit = 10;
  hits?: SearchHit[];
  withheld: SearchHit[] = [];

  private async search(e?: Event): Promise<void> {
    e?.preventDefault();
    if (!this.query.trim()) return;
    const ctx = this.ctx!;
    const result = await this.run(() =>
      ctx.api.search(this.query, this.person || undefined, this.area || undefined, this.language.trim() || undefined, this.limit),
    );
    if (result) {
      this.hits = result.hits;
      this.withheld = result.withheld ?? [];
    }
  }

  private factors(hit: SearchHit): TemplateResult {
    const ctx = this.ctx!;
    const entries = Object.entries(hit.factors).sort(([, a], [, b]) => Math.abs(b) - Math.abs(a));
    const top = Math.max(...entries.map(([, v]) => Math.abs(v)), 1e-9);
    return html`<table class="factors" data-testid="hit-factors">
      <caption class="help">${ctx.t("search.why")}</caption>
      ${entries.map(
        ([name, value]) =>
          html`<tr data-testid="factor" data-factor=${name}>
            <th scope="row">${ctx.label("factor", name)}</th>
            <td class="value">${ctx.number(value)}</td>
            <td class="bar" aria-hidden="true">
              <span
                class=${value < 0 ? "negative" : ""}
                style=${styleMap({ width: `${((Math.abs(value) / top) * 100).toFixed(1)}%` })}
              ></span>
            </td>
          </tr>`,
      )}
    </table>`;
  }

  private renderHit(hit: SearchHit): TemplateResult {
    const ctx = this.ctx!;
    const t = ctx.t;
    const extra = html`<div class="score" data-testid="hit-score">
        ${t("search.score", { score: ctx.number(hit.score), similarity: ctx.number(hit.similarity) })}
      </div>
      ${hit.outdated_by
        ? html`<p class="help" data-testid="hit-outdated">
            ${t("search.outdated")}
            <button class="link" @click=${() => openMemory(this, hit.outdated_by!)}>${t("search.open_newer")}</button>
          </p>`
        : nothing}
      ${this.factors(hit)}`;
    return renderMemory(ctx, this, hit.memory, extra, "search-hit");
  }

  /** A memory recall found but the assistant would not tell this speaker: marked, with who said it. */
  private renderWithheld(hit: SearchHit): TemplateResult {
    const ctx = this.ctx!;
    const extra = html`<div class="withheld-mark" data-testid="withheld-mark">${ctx.t("search.withheld_mark")}</div>
      <div class="score" data-testid="hit-score">
        ${ctx.t("search.score", { score: ctx.number(hit.score), similarity: ctx.number(hit.similarity) })}
      </div>`;
    return renderMemory(ctx, this, hit.memory, extra, "search-withheld");
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    return html`<form class="card" @submit=${(e: Event) => this.search(e)}>
        <h2>${t("search.title")}</h2>
        <p class="help">${t("search.help")}</p>
        <label class="field" for="search-query"
          >${t("search.query")}
          <input
            id="search-query"
            data-testid="search-query"
            type="search"
            required
            maxlength=${MAX_QUERY_CHARS}
            .value=${this.query}
            @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)}
          />
        </label>
        <div class="grid spaced">
          ${selectField("search-person", t("search.as_person"), this.person, personOptions(ctx, t("search.unknown_speaker")), (v) => (this.person = v))}
          ${selectField("search-area", t("search.in_area"), this.area, areaOptions(ctx, t("search.no_area")), (v) => (this.area = v))}
          <label class="field" for="search-language"
            >${t("field.language")}
            <input
              id="search-language"
              data-testid="search-language"
              type="text"
              autocomplete="off"
              spellcheck="false"
              placeholder=${ctx.hass.language}
              .value=${this.language}
              @input=${(e: Event) => (this.language = (e.target as HTMLInputElement).value)}
            />
          </label>
          <label class="field" for="search-limit"
            >${t("search.limit")}
            <input
              id="search-limit"
              data-testid="search-limit"
              type="number"
              min="1"
              max="20"
              .value=${String(this.limit)}
              @change=${(e: Event) => (this.limit = Math.min(20, Math.max(1, Number((e.target as HTMLInputElement).value) || 10)))}
            />
          </label>
        </div>
        <div class="actions">
          <button class="primary" type="submit" data-testid="search-submit" ?disabled=${this.busy}>${t("search.submit")}</button>
        </div>
      </form>
      ${this.renderError()}
      ${this.hits === undefined
        ? nothing
        : this.hits.length === 0
          ? html`<p class="muted" data-testid="search-empty">${t("search.empty")}</p>`
          : html`<ul class="plain" data-testid="search-hits">
              ${repeat(this.hits, (h) => h.memory.id, (h) => this.renderHit(h))}
            </ul>`}
      ${this.hits !== undefined && this.withheld.length
        ? html`<section class="withheld" data-testid="search-withheld-section" aria-labelledby="search-withheld-title">
            <h2 id="search-withheld-title">${t("search.withheld_title")}</h2>
            <p class="help">${t("search.withheld_help")}</p>
            <ul class="plain" data-testid="search-withheld-list">
              ${repeat(this.withheld, (h) => h.memory.id, (h) => this.renderWithheld(h))}
            </ul>
          </section>`
        : nothing}`;
  }
}

define("hm-search", HmSearch);
