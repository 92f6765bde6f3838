import { css } from 'lit'

/** The step views' styles: adopted when the dialog code loads. */
export const dialogStyles = css`
  p {
    margin: 0 0 0.75em;
  }
  .spinner {
    display: block;
    width: 2em;
    height: 2em;
    margin: 0.5em auto 1em;
    border: 3px solid var(--_border);
    border-block-start-color: var(--_accent);
    border-radius: 50%;
    animation: spin 0.9s linear infinite;
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation-duration: 3s;
    }
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  h3 {
    margin: 0 0 0.75em;
    font-size: 1em;
  }
  .muted,
  small {
    color: var(--_muted);
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
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
  .icon {
    width: 20px;
    height: 20px;
    border-radius: 50%;
  }
  .grow {
    flex: 1;
  }
  .actions {
    display: grid;
    gap: 0.5em;
    margin-block-start: 1em;
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
    padding: 0.25em 0.5em;
  }
  a {
    color: var(--_accent);
    display: inline-flex;
    align-items: center;
    min-height: 44px;
  }
  /* Label and value rows of one height, every value flush right. */
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    align-items: center;
    gap: 0 1em;
    margin: 0 0 1em;
  }
  dt {
    color: var(--_muted);
    min-height: 44px;
    display: flex;
    align-items: center;
  }
  dd {
    margin: 0;
    display: flex;
    align-items: center;
    gap: 0.5em;
    justify-content: end;
    text-align: end;
    font-variant-numeric: tabular-nums;
  }
  .value {
    display: inline-flex;
    align-items: center;
    gap: 0.4em;
    margin-inline-end: -0.5em;
    padding: 0 0.5em;
    border-color: transparent;
    background: none;
  }
  .value:hover {
    border-color: var(--_border);
  }
  .value svg {
    width: 1em;
    height: 1em;
    fill: none;
    stroke: var(--_accent);
    stroke-width: 1.5;
  }
  code {
    font-family: ui-monospace, 'SF Mono', Menlo, Consolas, monospace;
    font-size: 0.9em;
    overflow-wrap: anywhere;
    /* An address or a hash reads left to right in every language, isolated from the sentence
       around it; amounts are isolated where they are formatted (i18n/localize.ts). */
    direction: ltr;
    unicode-bidi: isolate;
  }
  .address {
    flex-wrap: wrap;
  }
  /* A value of several lines (the address and its copy button): its label on its first line. */
  dt.address {
    min-height: 0;
  }
  dt.address,
  dd.address {
    align-self: baseline;
  }
  .address [part~='address'] {
    flex: 1 1 100%;
    padding: 0;
    background: none;
    text-align: end;
    word-spacing: 0.15em;
  }
  /* Left to right inside, flush with the other values at the row's end. */
  [dir='rtl'] .address [part~='address'] {
    text-align: left;
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
    margin-block-end: 0.25em;
  }
`
