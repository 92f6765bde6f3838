import { css } from 'lit'

const dark = css`
  --_bg: var(--paysession-background, #17181c);
  --_fg: var(--paysession-foreground, #f3f4f6);
  --_muted: var(--paysession-muted, #a1a1aa);
  --_border: var(--paysession-border, #3f3f46);
  --_accent: var(--paysession-accent, #a5b4fc);
  --_on-accent: var(--paysession-accent-contrast, #111827);
  --_danger: var(--paysession-danger, #fca5a5);
  --_success: var(--paysession-success, #6ee7b7);
  --_surface: var(--paysession-surface, #24252b);
  color-scheme: dark;
`

export const styles = css`
  :host {
    display: inline-block;
    font-family: var(--paysession-font, system-ui, -apple-system, 'Segoe UI', sans-serif);
    font-size: var(--paysession-font-size, 16px);
    line-height: 1.4;
    --_radius: var(--paysession-radius, 10px);
    --_bg: var(--paysession-background, #fff);
    --_fg: var(--paysession-foreground, #111827);
    --_muted: var(--paysession-muted, #4b5563);
    --_border: var(--paysession-border, #d1d5db);
    --_accent: var(--paysession-accent, #4338ca);
    --_on-accent: var(--paysession-accent-contrast, #fff);
    --_danger: var(--paysession-danger, #b91c1c);
    --_success: var(--paysession-success, #047857);
    --_surface: var(--paysession-surface, #f3f4f6);
    --_focus: var(--paysession-focus-ring, 0 0 0 3px color-mix(in srgb, var(--_accent) 45%, transparent));
    color-scheme: light;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
    }
  }
  :host([theme='dark']) {
    ${dark}
  }
  :host([hidden]) {
    display: none;
  }
  button,
  a {
    font: inherit;
    color: inherit;
  }
  /* Every control is at least 44×44 CSS px: a comfortable tap on a phone. */
  button {
    cursor: pointer;
    box-sizing: border-box;
    min-width: 44px;
    min-height: 44px;
    border-radius: var(--_radius);
    border: 1px solid var(--_border);
    background: var(--_bg);
    padding: 0.6em 1em;
    text-align: start;
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button:focus-visible,
  a:focus-visible {
    outline: none;
    box-shadow: var(--_focus);
  }
  .primary,
  [part~='button'] {
    background: var(--_accent);
    color: var(--_on-accent);
    border-color: var(--_accent);
    font-weight: 600;
    text-align: center;
  }
  [part~='button'] {
    min-width: 12em;
    padding: 0.75em 1.5em;
  }
  [aria-busy='true'] {
    opacity: 0.7;
  }
  /* A finished payment is a state, not a call to action (only the pay button has these). */
  [data-ended] {
    background: var(--_surface);
    color: var(--_muted);
    border-color: var(--_border);
    font-weight: 500;
  }
  [data-ended='paid'] {
    color: var(--_success);
  }
  [data-ended='paid']::before {
    content: '✓ ';
  }
  dialog {
    box-sizing: border-box;
    width: min(26rem, calc(100vw - 2rem));
    max-height: calc(100dvh - 2rem);
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.6);
    background: var(--_bg);
    color: var(--_fg);
    box-shadow: 0 20px 50px rgb(0 0 0 / 0.3);
  }
  dialog::backdrop {
    background: var(--paysession-backdrop, rgb(15 23 42 / 0.55));
  }
  .header {
    display: flex;
    align-items: center;
    gap: 0.75em;
    padding-block: 1em 0.75em;
    padding-inline: 1.25em 0.75em;
    border-block-end: 1px solid var(--_border);
    /* Who and how much stay in sight while a long step scrolls. */
    position: sticky;
    inset-block-start: 0;
    z-index: 1;
    background: var(--_bg);
  }
  [part~='logo'] {
    width: 40px;
    height: 40px;
    border-radius: var(--_radius);
    object-fit: cover;
  }
  .who {
    flex: 1;
    min-width: 0;
  }
  h2 {
    margin: 0;
    font-size: 0.95em;
    font-weight: 500;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  [part~='total'] {
    margin: 0;
    font-size: 1.5em;
    font-weight: 700;
  }
  [part~='close'] {
    align-self: start;
    border: none;
    padding: 0;
    font-size: 1.5em;
    line-height: 1;
    background: none;
    text-align: center;
  }
  [part~='body'] {
    padding: 1em 1.25em 1.25em;
  }
`
