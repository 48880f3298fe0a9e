/**
 * The phone part: the UPI app chooser and the SBP bank chooser, with their styles. Loaded once the element takes
 * the phone layout; until then, or when it cannot load, the pay screen shows the requisites with the one-line
 * instruction and the QR behind "Pay from another device", which pay as well.
 */
import { css } from 'lit';

export { appChooser } from '../views/app-chooser.js';
export { bankChooser } from '../views/bank-chooser.js';

// A function, not a constant: in the script-tag build `css` is the core's, handed over after this module runs.
export const styles = () => css`
  .chooser { display: flex; flex-direction: column; gap: 0.5em }
  .apps, .banks { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5em }
  .banks { max-height: 20.5rem; overflow-y: auto }
  .apps { grid-template-columns: 1fr 1fr }
  .apps li:first-child, .apps li:last-child:nth-child(even) { grid-column: 1 / -1 }
  .apps .button { height: 100%; padding-inline: 0.5em }
  .bank, .search { font: inherit; border-radius: var(--payin-radius); color: inherit; background: none; border: 1px solid var(--payin-color-border) }
  .bank { display: flex; align-items: center; gap: 0.75em; min-height: 2.75rem; padding: 0.4em 0.75em; text-decoration: none; font-weight: 600; cursor: pointer }
  .bank img, .logo { width: 2rem; height: 2rem; border-radius: 50%; flex: none }
  .logo { display: grid; place-items: center; background: var(--payin-color-surface) }
  .search { width: 100%; min-height: 2.75rem; padding: 0.5em 0.75em; cursor: text }
`;
