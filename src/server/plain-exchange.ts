/**
 * The node adapter's fast path, and only the node adapter's. On node:http, building an undici Request and
 * Response for each small JSON exchange costs several times what the proxy's own work does (the body of each is
 * a web stream); a handler that offers `[PLAIN_HANDLER]` is therefore served with a light request read straight
 * off the IncomingMessage (node-request.ts), and its answer is written to the socket as it is (node-listener.ts).
 * The shapes and keys are the contract the proxy implements too (shared/exchange.ts).
 */
export { AS_FETCH_REQUEST, PLAIN_HANDLER, type Answer, type PlainHandler, type PlainRequest } from '../shared/exchange.js';
