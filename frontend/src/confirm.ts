// <hm-confirm>: a modal question before something that cannot be undone from the panel
// (forgetting). A native <dialog>: focus stays inside, Escape cancels, "Cancel" has the focus.
import { css, html, LitElement } from "lit";
import { define } from "./define";
import { shared } from "./styles";

export class MemoryConfirm extends LitElement {
  static styles = [
    shared,
    css`
      dialog {
        background: var(--card-background-color, #fff);
        color: var(--primary-text-color, #212121);
        border: 1px solid var(--divider-color, #e0e0e0);
        border-radius: var(--ha-dialog-border-radius, 24px);
        padding: 24px;
        max-width: min(440px, calc(100vw - 32px));
      }
      dialog::backdrop {
        background: rgba(0, 0, 0, 0.4);
      }
      .actions {
        justify-content: flex-end;
      }
    `,
  ];
  static properties = {
    text: { state: true },
    confirmLabel: { state: true },
    cancelLabel: { state: true },
  };

  text = "";
  confirmLabel = "";
  cancelLabel = "";
  private resolve?: (ok: boolean) => void;

  /** Shows `text`; resolves true when `confirmLabel` is chosen, false on cancel or Escape. */
  async ask(text: string, confirmLabel: string, cancelLabel: string): Promise<boolean> {
    this.resolve?.(false);
    this.text = text;
    this.confirmLabel = confirmLabel;
    this.cancelLabel = cancelLabel;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector("dialog")!;
    dialog.showModal();
    (this.renderRoot.querySelector("[data-testid=confirm-cancel]") as HTMLElement).focus();
    return new Promise((resolve) => (this.resolve = resolve));
  }

  private close(ok: boolean): void {
    this.renderRoot.querySelector("dialog")?.close();
    this.resolve?.(ok);
    this.resolve = undefined;
  }

  render() {
    return html`<dialog data-testid="confirm-dialog" aria-labelledby="confirm-text" @cancel=${() => this.close(false)}>
      <p id="confirm-text" data-testid="confirm-text">${this.text}</p>
      <div class="actions">
        <button data-testid="confirm-cancel" @click=${() => this.close(false)}>${this.cancelLabel}</button>
        <button class="danger" data-testid="confirm-ok" @click=${() => this.close(true)}>${this.confirmLabel}</button>
      </div>
    </dialog>`;
  }
}

define("hm-confirm", MemoryConfirm);
