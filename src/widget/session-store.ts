/**
 * What survives a reload: for each endpoint and order, the payment being paid and its read token, so that a
 * reload follows the same payment instead of creating a second one; and which final states this browser tab has
 * already announced, so that a reload that finds a payment final says so with `resumed: true`. sessionStorage is
 * per tab and dies with it, which is exactly the life of a checkout. Storage can throw (private modes, sandboxed
 * frames, quota): then the widget works as if nothing was remembered.
 */

export interface SessionRecord {
  paymentId: string;
  token: string;
  method: string;
}

/** The namespace of every name the widget keeps in the browser (storage keys, Web Locks, BroadcastChannels). */
export const PREFIX = 'payin-checkout:';
const ANNOUNCED = `${PREFIX}announced`;
const ANNOUNCED_MAX = 50;

/** Final events fired in this page's life, whatever the number of elements. */
const announcedThisPage = new Set<string>();

/**
 * Runs `use` on sessionStorage; storage that is missing or throws (private modes, sandboxed frames, quota) makes
 * it answer undefined, as if nothing was remembered.
 */
function withStorage<T>(use: (storage: Storage) => T): T | undefined {
  try {
    return use(sessionStorage);
  } catch {
    return undefined;
  }
}

function absolute(endpoint: string): string {
  try {
    return new URL(endpoint, document.baseURI).href.replace(/\/+$/, '');
  } catch {
    return endpoint;
  }
}

export function sessionKey(endpoint: string, orderId: string): string {
  return `${PREFIX}${absolute(endpoint)}|${orderId}`;
}

export function loadRecord(endpoint: string, orderId: string): SessionRecord | undefined {
  // A corrupt entry is as good as none; no entry (null) parses as null.
  const value = withStorage((s) => JSON.parse(s.getItem(sessionKey(endpoint, orderId))!) as Partial<SessionRecord> | null);
  return typeof value?.paymentId === 'string' && typeof value.token === 'string' && typeof value.method === 'string'
    ? (value as SessionRecord)
    : undefined;
}

/** Without storage a reload starts over; the proxy still answers the same pending payment. */
export function saveRecord(endpoint: string, orderId: string, record: SessionRecord): void {
  withStorage((s) => s.setItem(sessionKey(endpoint, orderId), JSON.stringify(record)));
}

export function clearRecord(endpoint: string, orderId: string): void {
  withStorage((s) => s.removeItem(sessionKey(endpoint, orderId)));
}

/**
 * Claims the announcement of a payment's final state for this page. Answers undefined when this page already
 * announced it, else whether an earlier page of this tab did (then the event says `resumed: true`).
 */
export function claimFinalAnnouncement(endpoint: string, paymentId: string): boolean | undefined {
  // The endpoint as the records have it, so that "/payin" and "/payin/" are one proxy here too.
  const key = sessionKey(endpoint, paymentId);
  if (announcedThisPage.has(key)) return undefined;
  announcedThisPage.add(key);
  const stored = withStorage((s) => JSON.parse(s.getItem(ANNOUNCED)!) as unknown);
  const list = Array.isArray(stored) ? stored : [];
  const before = list.includes(key);
  // Without storage the page-level set still keeps this page from announcing twice.
  if (!before) withStorage((s) => s.setItem(ANNOUNCED, JSON.stringify([...list, key].slice(-ANNOUNCED_MAX))));
  return before;
}
