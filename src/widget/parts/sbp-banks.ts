/**
 * The SBP banks part: on a phone, for an SBP payment, the NSPK bank list (loaded from the proxy) and its
 * searchable chooser (phone/bank-chooser.ts), with their styles. Without it the phone layout shows the
 * requisites (the phone number or the C2B QR), which pay as well.
 */
import { css } from 'lit';

export { bankChooser } from '../phone/bank-chooser.js';
export { SbpBankListController } from '../phone/sbp-bank-list.js';
/** The English of this part's screens (en.script.ts). */
export { enSbpBanks as en } from '../translations/en-parts.js';

// A function, not a constant: in the script-tag build `css` is the core's, handed over after this module runs.
export const styles = () => css`
  .banks { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5em; max-height: 20.5em; overflow-y: auto }
  .bank, .search { font: inherit; border-radius: var(--payin-radius); color: inherit; background: none; border: 1px solid var(--payin-color-border) }
  .bank { display: flex; align-items: center; gap: 0.75em; min-height: 2.75em; padding: 0.4em 0.75em; text-decoration: none; font-weight: 600; cursor: pointer }
  .bank img, .logo { width: 2em; height: 2em; border-radius: 50%; flex: none }
  .logo { display: grid; place-items: center; background: var(--payin-color-surface) }
  .search { width: 100%; min-height: 2.75em; padding: 0.5em 0.75em; cursor: text }
  /* The browser's own placeholder grey is the light scheme's: 3.75:1 on the dark background. */
  .search::placeholder { color: var(--payin-color-muted); opacity: 1 }
`;
