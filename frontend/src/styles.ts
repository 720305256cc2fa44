// The look of Home Assistant's own panels, from the theme's CSS variables only: light and dark
// mode (and any custom theme) follow the user's theme; the fallbacks are HA's light defaults.
import { css } from "lit";

export const shared = css`
  :host {
    display: block;
    color: var(--primary-text-color, #212121);
    font-family: var(--ha-font-family-body, var(--paper-font-body1_-_font-family, Roboto, Noto, sans-serif));
    -webkit-font-smoothing: antialiased;
  }
  * {
    box-sizing: border-box;
  }
  h2 {
    font-size: 20px;
    font-weight: 500;
    margin: 0 0 12px;
  }
  h3 {
    font-size: 16px;
    font-weight: 500;
    margin: 16px 0 8px;
  }
  p {
    margin: 0 0 8px;
  }
  .card {
    background: var(--card-background-color, #fff);
    color: var(--primary-text-color, #212121);
    border: 1px solid var(--divider-color, #e0e0e0);
    border-radius: var(--ha-card-border-radius, 12px);
    padding: 16px;
    margin: 0 0 12px;
  }
  .muted,
  .help {
    color: var(--secondary-text-color, #727272);
  }
  .help {
    font-size: 14px;
  }
  button {
    font: inherit;
    font-size: 14px;
    font-weight: 500;
    min-height: 36px;
    padding: 0 16px;
    border-radius: 18px;
    border: 1px solid var(--divider-color, #e0e0e0);
    background: transparent;
    color: var(--primary-color, #03a9f4);
    cursor: pointer;
  }
  button.primary {
    background: var(--primary-color, #03a9f4);
    border-color: var(--primary-color, #03a9f4);
    color: var(--text-primary-color, #fff);
  }
  button.danger {
    background: var(--error-color, #db4437);
    border-color: var(--error-color, #db4437);
    color: var(--text-primary-color, #fff);
  }
  button.link {
    border: none;
    padding: 0 4px;
    min-height: 0;
    text-decoration: underline;
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  summary:focus-visible {
    outline: 2px solid var(--primary-color, #03a9f4);
    outline-offset: 2px;
  }
  input,
  select,
  textarea {
    font: inherit;
    font-size: 14px;
    color: var(--primary-text-color, #212121);
    background: var(--input-fill-color, var(--secondary-background-color, #f5f5f5));
    border: 1px solid var(--divider-color, #e0e0e0);
    border-radius: 4px;
    padding: 6px 8px;
    min-height: 36px;
    width: 100%;
    max-width: 100%;
  }
  input[type="checkbox"] {
    width: 20px;
    min-height: 20px;
    height: 20px;
    margin: 0;
    accent-color: var(--primary-color, #03a9f4);
    flex: none;
  }
  textarea {
    min-height: 72px;
    resize: vertical;
  }
  label.field {
    display: flex;
    flex-direction: column;
    gap: 4px;
    font-size: 14px;
    color: var(--secondary-text-color, #727272);
    min-width: 0;
  }
  label.check {
    display: flex;
    align-items: flex-start;
    gap: 12px;
    padding: 8px 0;
    cursor: pointer;
  }
  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(160px, 1fr));
    gap: 8px 12px;
  }
  .spaced {
    margin-top: 8px;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    margin-top: 12px;
  }
  .chips {
    display: flex;
    flex-wrap: wrap;
    gap: 4px;
    margin: 6px 0;
  }
  .chip {
    font-size: 12px;
    line-height: 20px;
    padding: 0 8px;
    border-radius: 10px;
    background: var(--secondary-background-color, #f5f5f5);
    color: var(--secondary-text-color, #727272);
    border: 1px solid var(--divider-color, #e0e0e0);
  }
  .chip.warn {
    color: var(--warning-color, #ffa600);
    border-color: var(--warning-color, #ffa600);
  }
  .content {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-size: 16px;
  }
  .said-by {
    font-size: 13px;
    color: var(--secondary-text-color, #727272);
  }
  .error {
    color: var(--error-color, #db4437);
    border-left: 4px solid var(--error-color, #db4437);
    padding: 8px 12px;
    margin: 0 0 12px;
    background: var(--card-background-color, #fff);
  }
  .notice {
    border-left: 4px solid var(--success-color, #43a047);
    padding: 8px 12px;
    margin: 0 0 12px;
    background: var(--card-background-color, #fff);
  }
  .counts {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(140px, 1fr));
    gap: 8px;
  }
  .count {
    display: flex;
    flex-direction: column;
    padding: 8px 12px;
    border-radius: 8px;
    background: var(--secondary-background-color, #f5f5f5);
  }
  .count .n {
    font-size: 24px;
    font-weight: 500;
  }
  .count .label {
    font-size: 13px;
    color: var(--secondary-text-color, #727272);
  }
  ul.plain {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  del {
    color: var(--secondary-text-color, #727272);
  }
  dl.fields {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 4px 12px;
    margin: 8px 0 0;
    font-size: 14px;
  }
  dl.fields dt {
    color: var(--secondary-text-color, #727272);
  }
  dl.fields dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  @media (max-width: 450px) {
    .card {
      padding: 12px;
      border-radius: 8px;
    }
    dl.fields {
      grid-template-columns: 1fr;
    }
    dl.fields dd {
      margin-bottom: 4px;
    }
  }
`;
