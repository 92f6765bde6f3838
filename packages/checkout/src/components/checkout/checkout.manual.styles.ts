import { css } from 'lit'

/** The manual payment's and the no-wallet views' styles: adopted when their code loads. */
export const manualStyles = css`
  /* Groups of four that wrap only between groups, in lines of even length. */
  [part~='address'] {
    display: block;
    padding: 0.75em 1em;
    border-radius: var(--_radius);
    background: var(--_surface);
    font-size: 1em;
    line-height: 1.6;
    text-align: center;
    text-wrap: balance;
  }
  [part~='x402-url'] {
    overflow-wrap: anywhere;
  }
  [part~='address'] span {
    margin-inline: 0.2em;
  }
  .tabs {
    display: flex;
    gap: 0.5em;
    margin-block-end: 1em;
  }
  .tabs button {
    flex: 1;
    text-align: center;
  }
  .tabs [aria-pressed='true'] {
    border-color: var(--_accent);
    box-shadow: inset 0 0 0 1px var(--_accent);
    font-weight: 600;
  }
  [part~='notice'] .spinner {
    display: inline-block;
    width: 1em;
    height: 1em;
    margin: 0;
    margin-inline-end: 0.5em;
    vertical-align: -0.15em;
    border-width: 2px;
  }
  [part~='qr'] {
    display: block;
    width: 200px;
    height: 200px;
    margin: 1em auto;
    padding: 8px;
    background: #fff;
    border-radius: var(--_radius);
  }
`
