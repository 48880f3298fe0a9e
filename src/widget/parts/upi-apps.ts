/**
 * The UPI apps part: on a phone, for a UPI payment, the app chooser (phone/app-chooser.ts) with its styles. Without
 * it the phone layout shows the requisites with the one-line instruction, and the QR.
 */
import { css } from 'lit';

export { appChooser } from '../phone/app-chooser.js';
/** The English of this part's screens (en.script.ts). */
export { enUpiApps as en } from '../translations/en-parts.js';

// A function, not a constant: in the script-tag build `css` is the core's, handed over after this module runs.
export const styles = () => css`
  /* Two columns, or one when two would not hold an app's name (large text on a narrow phone). */
  .apps { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5em; grid-template-columns: repeat(auto-fit, minmax(min(100%, 7.5em), 1fr)) }
  .apps li:first-child, .apps li:last-child:nth-child(even) { grid-column: 1 / -1 }
  .apps .button { height: 100%; padding-inline: 0.5em }
`;
