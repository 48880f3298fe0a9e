/**
 * The element's stylesheet: adopted by the shadow root (no <style> element, no inline style), so it works under
 * `style-src 'self'`. Every color and size is a `--payin-*` custom property with its default on :host (or, for one
 * read in one place, as the fallback there, which also lets it inherit from the page); dark
 * defaults follow prefers-color-scheme and prefers-reduced-motion stops the spinner. Default colors keep a
 * contrast of at least 4.5:1 in both schemes; the QR stays black on white in both. Only logical properties
 * (inline-start, not left), so that a right-to-left language mirrors the layout; a value (an amount, a UPI ID, a
 * phone number) takes its direction from its own first letter, so digits are never reordered, and the QR, an SVG
 * of its own, is never mirrored. The rules of the phone layout and of the final screens travel with their parts
 * (parts/phone.ts, parts/results.ts).
 */
import { css } from 'lit';

export const styles = css`
  :host {
    /* --payin-font-family has no default: unset, font-family falls back to inheriting. */
    --payin-color-text: #1b1f24;
    --payin-color-muted: #57606a;
    --payin-color-background: #fff;
    --payin-color-surface: #f3f5f7;
    --payin-color-border: #d0d7de;
    --payin-color-accent: #0b5cd5;
    --payin-color-on-accent: #fff;
    --payin-color-success: #1a7f37;
    --payin-color-danger: #c2222d;
    /* In em, as every length here: the element's own text size (below), not the page's root, sizes the element. */
    --payin-radius: 0.5em;
    --payin-spacing: 1em;
    display: block;
    max-width: var(--payin-max-width, 28em);
    color: var(--payin-color-text);
    font-family: var(--payin-font-family);
    /* Not below 16px: a page's root of 10px (Bootstrap 3, or the 62.5% trick) would make every rem of it 10px. */
    font-size: var(--payin-font-size, max(1rem, 16px));
    line-height: 1.45;
    /* Inherited from the page otherwise: a shop's centred or indented column would skew the element's rows. */
    text-align: start;
    text-indent: 0;
    white-space: normal;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --payin-color-text: #e6edf3;
      --payin-color-muted: #9da7b3;
      --payin-color-background: #161b22;
      --payin-color-surface: #21262d;
      --payin-color-border: #3d444d;
      --payin-color-accent: #4d94ff;
      --payin-color-on-accent: #0d1117;
      --payin-color-success: #3fb950;
      --payin-color-danger: #ff7b72;
    }
  }
  :host([hidden]) { display: none }
  * { box-sizing: border-box }
  .base {
    background: var(--payin-color-background);
    border: 1px solid var(--payin-color-border);
    border-radius: var(--payin-radius);
    padding: var(--payin-spacing);
    /* A word longer than its row (a Tamil heading, a bank's name, at a large text size on a narrow phone) breaks
       rather than pushing its button or the element past the screen's edge. */
    overflow-wrap: anywhere;
  }
  .screen, .details, .qr-frame { display: flex; flex-direction: column; gap: var(--payin-spacing) }
  .qr-frame { align-items: center; text-align: center }
  h2 { margin: 0; font-size: 1.25em }
  h2:focus { outline: none }
  p, dl, dd, figure { margin: 0 }
  .hint, dt, .label, .countdown { color: var(--payin-color-muted); font-size: 0.9em }
  button, .button { font: inherit; cursor: pointer; border-radius: var(--payin-radius); color: inherit; background: none; border: 1px solid var(--payin-color-border) }
  .button { display: flex; align-items: center; justify-content: center; min-height: 2.75em; padding: 0.6em 1.2em; font-weight: 600; text-align: center; text-decoration: none; border-color: var(--payin-color-accent); color: var(--payin-color-accent) }
  .primary { background: var(--payin-color-accent); color: var(--payin-color-on-accent) }
  .methods { display: grid; gap: 0.5em }
  .copy { padding: 0.3em 0.8em; min-height: calc(2.75em / 0.875); font-size: 0.875em }
  .done { border-color: currentColor; color: var(--payin-color-success) }
  .link { border: none; padding: 0.25em 0; min-height: 2.75em; color: var(--payin-color-accent); text-decoration: underline; align-self: center }
  :focus-visible { outline: var(--payin-focus-ring, 3px solid var(--payin-color-accent)); outline-offset: 2px }
  .amount, .requisites { background: var(--payin-color-surface); border-radius: var(--payin-radius); padding: 0.75em }
  .amount, dd { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; justify-content: space-between }
  .amount .label { flex-basis: 100% }
  /* Where the amount's box is narrow (a phone with its text at 200%) the amount shrinks towards the text's size
     (never below it) rather than break inside the number, after "₹499.0"; only a number longer than that still wraps. */
  .amount { container-type: inline-size }
  .amount .value { font-size: clamp(1em, 16cqi, 1.6em) }
  .value { font-weight: 700; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; unicode-bidi: plaintext }
  .requisites { display: grid; gap: 0.75em }
  .mono { font-family: ui-monospace, Menlo, Consolas, monospace }
  .pay-body { display: flex; flex-wrap: wrap; gap: var(--payin-spacing); justify-content: center }
  .details { gap: 0.75em; min-width: 0 }
  .pay-body .details { flex: 1 1 14em }
  .qr { display: block; max-width: 100%; height: auto }
  .clock { font-size: 1.25em; font-weight: 700; color: var(--payin-color-text); margin-inline-start: 0.5em }
  .urgent .clock, .error { color: var(--payin-color-danger) }
  .notice { display: flex; flex-wrap: wrap; gap: 0.5em; padding: 0.5em 0.75em; border-inline-start: 4px solid var(--payin-color-danger); background: var(--payin-color-surface) }
  .spinner {
    width: 2em; height: 2em; border-radius: 50%; align-self: center;
    border: 3px solid var(--payin-color-border); border-top-color: var(--payin-color-accent);
    animation: spin 1s linear infinite;
  }
  @keyframes spin { to { transform: rotate(1turn) } }
  @media (prefers-reduced-motion: reduce) {
    .spinner { animation: none }
  }
  .sr-only, .copy-scratch { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap }
`;
