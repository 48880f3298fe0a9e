/**
 * The script-tag build's parts: `payin-checkout.<part>.part.js` beside payin-checkout.iife.js, found from the
 * script's own address as the language files are, so a shop adds no tag and no configuration. Each file is an ES
 * module whose default export takes the kit (the core's Lit, QR drawing and shared template helpers, listed in
 * kit-modules.ts) and answers the part. A strict CSP that lets the script load lets them load too: they come from
 * the same place. From another origin (a CDN) they need CORS headers, as any module does; without them the core
 * draws without the parts.
 */
import { css, html, nothing } from 'lit';
import { isPaidState } from '../../shared/outcome.js';
import { routeUrl } from '../api-client.js';
import { qrPath } from '../qr-code.js';
import { SCRIPT_URL } from '../script-url.js';
import { PREFIX } from '../session-store.js';
import { en } from '../translations/en.script.js';
import { amountBlock, countdown, money, notices, otherMethod } from '../views/parts.js';
import { requisites } from '../views/requisites.js';
import type { KitName } from './kit-modules.js';
import type { PartLoaders, PartName, Parts } from './part-types.js';

const KIT: Record<KitName, unknown> = {
  css,
  html,
  nothing,
  isPaidState,
  routeUrl,
  qrPath,
  PREFIX,
  amountBlock,
  countdown,
  money,
  notices,
  otherMethod,
  requisites,
};

function besideTheScript<K extends PartName>(name: K): () => Promise<Parts[K]> {
  return async () => {
    // Without the script's address (not loaded by a script tag) the import fails, and the core draws without it.
    const part = (await import(/* @vite-ignore */ new URL(`payin-checkout.${name}.part.js`, SCRIPT_URL).href)).default(KIT);
    // The English of the part's screens joins the core's before the part draws (translations/en.script.ts).
    if (part?.en) Object.assign(en, part.en);
    return part;
  };
}

export const PARTS: PartLoaders = {
  phone: besideTheScript('phone'),
  'upi-apps': besideTheScript('upi-apps'),
  'sbp-banks': besideTheScript('sbp-banks'),
  results: besideTheScript('results'),
  'qr-encoder': besideTheScript('qr-encoder'),
};
