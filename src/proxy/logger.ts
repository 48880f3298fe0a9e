/**
 * Where the proxy reports what a shop's operator should know: hooks that failed, callbacks for payments it does
 * not know, an upstream that misbehaves. Fields are plain values chosen by the caller; tokens, signatures,
 * secrets and request bodies are never passed in, so any logger (console, pino, a worker's log) is safe to plug.
 */

export interface ProxyLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Warnings and errors to the console; routine information stays quiet. */
export const consoleLogger: ProxyLogger = {
  info: () => {},
  warn: (message, fields) => console.warn(`[payin-proxy] ${message}`, fields ?? ''),
  error: (message, fields) => console.error(`[payin-proxy] ${message}`, fields ?? ''),
};

export const silentLogger: ProxyLogger = { info: () => {}, warn: () => {}, error: () => {} };
