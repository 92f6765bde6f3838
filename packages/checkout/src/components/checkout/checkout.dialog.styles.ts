import { css } from 'lit'

/** The step views' styles: adopted when the dialog code loads. */
export const dialogStyles = css`
  .list {
    display: grid;
    gap: 0.5em;
    margin: 0 0 1em;
    padding: 0;
    list-style: none;
  }
  .list button {
    width: 100%;
    display: flex;
    align-items: center;
    gap: 0.75em;
  }
  .list button[aria-pressed='true'] {
    border-color: var(--_accent);
    box-shadow: inset 0 0 0 1px var(--_accent);
  }
  .list img {
    width: 28px;
    height: 28px;
  }
  .grow {
    flex: 1;
  }
  .actions {
    display: grid;
    gap: 0.5em;
    margin-top: 1em;
  }
  .actions button {
    width: 100%;
    text-align: center;
  }
  .link {
    border: none;
    background: none;
    color: var(--_accent);
    text-decoration: underline;
    padding: 0.25em 0;
  }
  a {
    color: var(--_accent);
  }
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.5em 1em;
    margin: 0 0 1em;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
    display: flex;
    align-items: center;
    gap: 0.5em;
    justify-content: end;
    font-variant-numeric: tabular-nums;
  }
  code,
  [part~='address'] {
    font-family: ui-monospace, 'SF Mono', Menlo, Consolas, monospace;
    font-size: 0.9em;
    overflow-wrap: anywhere;
  }
  [part~='address'] {
    display: block;
    padding: 0.6em;
    border-radius: var(--_radius);
    background: var(--_surface);
    margin-bottom: 0.5em;
  }
  .address {
    flex-wrap: wrap;
  }
  .address [part~='address'] {
    flex: 1;
    margin: 0;
    word-spacing: 0.15em;
  }
  .small {
    padding: 0.2em 0.6em;
    font-size: 0.85em;
  }
  [part~='error'] {
    color: var(--_danger);
    border: 1px solid currentColor;
    border-radius: var(--_radius);
    padding: 0.6em 0.8em;
    margin: 0 0 1em;
  }
  [part~='notice'] {
    background: var(--_surface);
    border-radius: var(--_radius);
    padding: 0.6em 0.8em;
    margin: 0 0 1em;
  }
  .center {
    text-align: center;
  }
  .success {
    color: var(--_success);
    font-size: 2.5em;
    line-height: 1;
    margin-bottom: 0.25em;
  }
  [part~='qr'] {
    display: block;
    width: 200px;
    height: 200px;
    margin: 0 auto 1em;
    padding: 8px;
    background: #fff;
    border-radius: var(--_radius);
  }
`
