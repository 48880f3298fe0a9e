/**
 * The peer address of a request, as toNodeListener attaches it (Fetch has no standard place for it). Kept apart
 * from the node:http adapter so that code for any Fetch runtime, the proxy's rate limits among it, can read it
 * without importing node:* modules.
 */

/** The peer address that toNodeListener attached, if any. */
export function remoteAddressOf(request: object): string | undefined {
  return (request as { remoteAddress?: string }).remoteAddress;
}
