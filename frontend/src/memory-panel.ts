// <household-memory-panel>: the "Memory" sidebar panel (custom_components/memory/panel.py
// registers it for administrators). Home Assistant sets `hass` (language, callWS, states, user)
// and `narrow` (phone width); the panel keeps its own tab and the memory that is open.
import { css, html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import type { Area, HomeAssistant } from "./api";
import "./confirm";
import { makeContext, type PanelContext } from "./context";
import { define } from "./define";
import { shared } from "./styles";
import "./views/consolidate";
import "./views/detail";
import "./views/forget";
import "./views/list";
import "./views/overview";
import "./views/pending";
import "./views/search";
import "./views/settings";
import "./views/transfer";
import "./views/voice";

/** The tabs, in order: their name (data-testid="tab-<name>", text key "tab.<name>"). */
export const TABS = [
  "overview",
  "list",
  "search",
  "pending",
  "forget",
  "consolidate",
  "transfer",
  "voice",
  "settings",
] as const;
type Tab = (typeof TABS)[number];

const MENU_ICON = "M3,6H21V8H3V6M3,11H21V13H3V11M3,16H21V18H3V16Z"; // three bars

export class HouseholdMemoryPanel extends LitElement {
  static styles = [
    shared,
    css`
      :host {
        min-height: 100vh;
        background: var(--primary-background-color, #fafafa);
      }
      header {
        display: flex;
        align-items: center;
        gap: 8px;
        height: var(--header-height, 56px);
        padding: 0 12px;
        background: var(--app-header-background-color, var(--primary-color, #03a9f4));
        color: var(--app-header-text-color, var(--text-primary-color, #fff));
        border-bottom: var(--app-header-border-bottom, none);
        position: sticky;
        top: 0;
        z-index: 2;
      }
      header h1 {
        font-size: 20px;
        font-weight: 400;
        margin: 0 0 0 8px;
        flex: 1;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      header button {
        color: inherit;
        border: none;
        border-radius: 50%;
        width: 48px;
        height: 48px;
        padding: 12px;
        display: inline-flex;
      }
      header button:focus-visible {
        outline-color: currentColor;
      }
      header svg {
        width: 24px;
        height: 24px;
        fill: currentColor;
      }
      nav {
        display: flex;
        overflow-x: auto;
        gap: 4px;
        padding: 0 8px;
        background: var(--app-header-background-color, var(--primary-color, #03a9f4));
        scrollbar-width: none;
      }
      nav button {
        flex: none;
        border: none;
        border-radius: 0;
        border-bottom: 3px solid transparent;
        color: var(--app-header-text-color, var(--text-primary-color, #fff));
        opacity: 0.8;
        min-height: 44px;
        padding: 0 12px;
      }
      nav button[aria-current="page"] {
        opacity: 1;
        border-bottom-color: var(--app-header-text-color, var(--text-primary-color, #fff));
      }
      nav button:focus-visible {
        outline: 2px solid var(--app-header-text-color, var(--text-primary-color, #fff));
        outline-offset: -4px;
      }
      main {
        max-width: 1000px;
        margin: 0 auto;
        padding: 16px;
      }
      main:focus {
        outline: none;
      }
      :host([narrow]) main {
        padding: 8px;
      }
    `,
  ];

  static properties = {
    hass: { attribute: false },
    narrow: { type: Boolean, reflect: true },
    tab: { state: true },
    memoryId: { state: true },
    areas: { state: true },
    ctx: { state: true },
  };

  hass?: HomeAssistant;
  narrow = false;
  tab: Tab = "overview";
  /** The memory shown over the tab (its history, edit, forget); "" when none. */
  memoryId = "";
  areas: Area[] = [];
  ctx?: PanelContext;
  private areasLoaded = false;

  constructor() {
    super();
    this.addEventListener("memory-open", (e) => {
      this.memoryId = (e as CustomEvent<{ id: string }>).detail.id;
    });
    this.addEventListener("memory-navigate", (e) => {
      const view = (e as CustomEvent<{ view: string }>).detail.view;
      this.memoryId = "";
      if ((TABS as readonly string[]).includes(view)) this.tab = view as Tab;
    });
  }

  protected willUpdate(changed: PropertyValues<this>): void {
    if (!this.hass) return;
    if (!this.areasLoaded) {
      this.areasLoaded = true;
      void this.loadAreas();
    }
    // A new context (and a re-render of the view) when the language, the persons or the areas
    // change, not at every state change of other entities (callWS stays the connection's).
    const old = changed.get("hass") as HomeAssistant | undefined;
    if (
      !this.ctx ||
      changed.has("areas") ||
      (old && (old.language !== this.hass.language || this.personsChanged(old, this.hass)))
    ) {
      this.ctx = makeContext(this.hass, this.areas);
    }
  }

  private personsChanged(a: HomeAssistant, b: HomeAssistant): boolean {
    const persons = (h: HomeAssistant) =>
      Object.keys(h.states)
        .filter((id) => id.startsWith("person."))
        .map((id) => `${id}=${String(h.states[id].attributes.friendly_name ?? "")}`)
        .join("\n");
    return a.states !== b.states && persons(a) !== persons(b);
  }

  private async loadAreas(): Promise<void> {
    try {
      const areas = await this.hass!.callWS<Area[]>({ type: "config/area_registry/list" });
      this.areas = [...areas].sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      this.areas = []; // the pickers offer no areas; every other view still works
    }
  }

  protected updated(changed: PropertyValues<this>): void {
    // a memory opened or closed: the button pressed is gone, so show the new view's top and give
    // it the keyboard focus (switching tabs keeps the focus on the tab)
    if (changed.has("memoryId") && changed.get("memoryId") !== undefined) {
      this.renderRoot.querySelector("main")?.focus({ preventScroll: true });
      this.scrollIntoView?.({ block: "start" });
    }
  }

  private toggleMenu(): void {
    this.dispatchEvent(new CustomEvent("hass-toggle-menu", { bubbles: true, composed: true }));
  }

  private select(tab: Tab): void {
    this.memoryId = "";
    this.tab = tab;
  }

  private renderView(ctx: PanelContext): TemplateResult {
    if (this.memoryId) return html`<hm-detail .ctx=${ctx} .memoryId=${this.memoryId}></hm-detail>`;
    switch (this.tab) {
      case "overview":
        return html`<hm-overview .ctx=${ctx}></hm-overview>`;
      case "list":
        return html`<hm-list .ctx=${ctx}></hm-list>`;
      case "search":
        return html`<hm-search .ctx=${ctx}></hm-search>`;
      case "pending":
        return html`<hm-pending .ctx=${ctx}></hm-pending>`;
      case "forget":
        return html`<hm-forget .ctx=${ctx}></hm-forget>`;
      case "consolidate":
        return html`<hm-consolidate .ctx=${ctx}></hm-consolidate>`;
      case "transfer":
        return html`<hm-transfer .ctx=${ctx}></hm-transfer>`;
      case "voice":
        return html`<hm-voice .ctx=${ctx}></hm-voice>`;
      case "settings":
        return html`<hm-settings .ctx=${ctx}></hm-settings>`;
    }
  }

  render() {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const t = ctx.t;
    return html`<header>
        ${this.narrow
          ? html`<button data-testid="menu" aria-label=${t("panel.menu")} title=${t("panel.menu")} @click=${this.toggleMenu}>
              <svg viewBox="0 0 24 24" aria-hidden="true"><path d=${MENU_ICON}></path></svg>
            </button>`
          : nothing}
        <h1 data-testid="panel-title">${t("panel.title")}</h1>
      </header>
      <nav aria-label=${t("panel.sections")}>
        ${TABS.map(
          (tab) =>
            html`<button
              data-testid="tab-${tab}"
              aria-current=${this.tab === tab && !this.memoryId ? "page" : "false"}
              @click=${() => this.select(tab)}
            >
              ${t(`tab.${tab}`)}
            </button>`,
        )}
      </nav>
      <main tabindex="-1" data-testid="view-${this.memoryId ? "memory" : this.tab}">${this.renderView(ctx)}</main>`;
  }
}

define("household-memory-panel", HouseholdMemoryPanel);
