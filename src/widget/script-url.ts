/**
 * The address of the script-tag build's core, from which its parts and languages are found (they are beside it).
 * A classic script names itself as document.currentScript while it runs; a page that loads the core as a module
 * script (`<script type="module" src=".../payin-checkout.iife.js">`) has none, so the core is then looked for by
 * its file's name. Read while the script runs: currentScript is gone once it has. Only the script-tag build uses
 * this (a browser runs it: Lit needs a document).
 */
export const SCRIPT_URL = (
  (document.currentScript ?? document.querySelector('script[src*="payin-checkout.iife"]')) as HTMLScriptElement | null
)?.src;
