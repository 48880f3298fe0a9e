/**
 * What the script-tag build's core hands its parts, by module (a path from src/widget without its extension, or
 * a package name) and the names taken from it. A part file is built apart from the core (build/part-files.ts), so
 * an import of one of these modules in a part is served from the core's own copy instead of being bundled again:
 * one Lit on the page (its templates and directives must come from the Lit that renders them), no
 * second copy of a helper the core has. The build stops when a part imports any other package; catalog.script.ts
 * hands over exactly these names (its type checks that).
 */
export const KIT_MODULES = {
  lit: ['css', 'html', 'nothing'],
  '../shared/outcome': ['isPaidState'],
  'api-client': ['routeUrl'],
  'qr-code': ['qrPath'],
  'session-store': ['PREFIX'],
  'views/parts': ['amountBlock', 'countdown', 'money', 'notices', 'otherMethod'],
  'views/requisites': ['requisites'],
} as const;

type Kit = typeof KIT_MODULES;

/** Every name the core hands its parts. */
export type KitName = Kit[keyof Kit][number];
