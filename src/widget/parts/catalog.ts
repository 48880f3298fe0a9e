/**
 * The parts as dynamic imports, so that a shop's bundler splits each into a chunk of its own that the browser
 * fetches when the element first needs it. The script-tag build swaps this module for catalog.script.ts
 * (vite.config.ts), which loads the same parts from files beside the script.
 */
import type { PartLoaders } from './part-types.js';

export const PARTS: PartLoaders = {
  phone: () => import('./phone.js'),
  'upi-apps': () => import('./upi-apps.js'),
  'sbp-banks': () => import('./sbp-banks.js'),
  results: () => import('./results.js'),
  'qr-encoder': () => import('./qr-encoder.js'),
};
