/**
 * The facts beside a refusal's English message, by its code, of every refusal an operator can meet through the
 * console page: the page words each in the operator's own language from them (console/action-words.ts), and
 * TypeScript holds it to words for every code and every reason here. A refusal the page never provokes (a route
 * or a filter it does not send) has no facts and is shown as the server worded it; so is one from a server of an
 * older version. The facts travel beside `code` and `message` in `{error: {...}}`, so none of them is named either.
 */

/** Nothing to add to the code: its words say it all. */
type NoFacts = Record<string, never>;

/**
 * Why a re-check brought no state. `httpStatus` is the status of a service that answered with an error; a service
 * that refused with HTTP 200 and `status: false` gives its `refusalCode` instead.
 */
export type NoAnswer =
  | { reason: 'unknown_payment'; httpStatus?: number; refusalCode?: number }
  | { reason: 'refused'; httpStatus?: number; refusalCode?: number }
  | { reason: 'signature' }
  | { reason: 'malformed' }
  | { reason: 'failed'; httpStatus?: number }
  | { reason: 'no_answer' };

export interface RefusalFacts {
  /** A re-check that brought no state from the payment service. */
  service_unavailable: NoAnswer;
  /** The ledger could not be read or written: any call of the page. */
  store_unavailable: NoFacts;
  /** Signed out meanwhile: the page reloads to the sign-in. */
  unauthorized: NoFacts;
  /** Refused as not the console page's own request: a CSRF cookie gone, or a web server in front that rewrites Host. */
  forbidden: { reason: 'not_console_page' } | { reason: 'host_mismatch'; origin: string; host: string };
  /** The payment opened or acted on is gone from the ledger. */
  not_found: { reason: 'no_payment' };
  /** A refund reference or resolution note with a control character (a pasted tab); the page's fields keep them short enough. */
  bad_request: { reason: BadText };
  busy: NoFacts;
  not_second_payment: NoFacts;
  already_refunded: { operator: string; at: number; reference?: string };
  not_contradicted: NoFacts;
  already_resolved: { operator: string; at: number; note?: string };
}

/** Which field of an action's form held a control character. */
export type BadText = 'reference_control_character' | 'note_control_character';

export type RefusalCode = keyof RefusalFacts;
