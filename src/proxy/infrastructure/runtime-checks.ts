/**
 * What the proxy needs of the runtime it finds itself on, said once at start where a setting of the shop's
 * deployment is missing. The proxy hears that a shopper left its event stream (a closed tab, a reload, a phone
 * changing networks) through `request.signal`; workerd aborts that signal only with the enable_request_signal
 * compatibility flag, and otherwise drops the stream's timers without a word, so each left stream kept one of its
 * client's open-stream slots (10) until the slot's count lapsed, 31 minutes later.
 */

interface WorkerdGlobal {
  Cloudflare?: { compatibilityFlags?: Record<string, boolean> };
}

/** Why this runtime cannot serve the proxy's event streams well, or undefined when it can. */
export function runtimeProblem(): string | undefined {
  const flags = (globalThis as WorkerdGlobal).Cloudflare?.compatibilityFlags;
  if (flags && flags.enable_request_signal !== true) {
    return 'on Cloudflare Workers, add "enable_request_signal" to compatibility_flags in the wrangler configuration: without it the proxy never hears that a shopper left an event stream, and the stream holds one of its client\'s open-stream slots for 31 minutes';
  }
  return undefined;
}
