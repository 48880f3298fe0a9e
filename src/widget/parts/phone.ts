/**
 * The phone part: the pay screen's phone layout (phone/phone-layout.ts: the way to pay on this phone first, the
 * QR folded away, with a way to save or share it as an image) with its styles and its English. Loaded once the
 * element takes the phone layout; until then, or when it cannot load, a phone gets the desktop pay screen (the QR
 * beside the requisites), which pays as well.
 */
import { css } from 'lit';

export { PhoneLayout } from '../phone/phone-layout.js';
/** The English of this part's screens (en.script.ts). */
export { enPhone as en } from '../translations/en-parts.js';

// A function, not a constant: in the script-tag build `css` is the core's, handed over after this module runs.
export const styles = () => css`
  .chooser, .other[open] { display: flex; flex-direction: column; gap: 0.5em }
  .other .button { margin-top: 0.75em }
  summary { cursor: pointer; padding: 0.75em 0; color: var(--payin-color-accent); font-weight: 600 }
`;
