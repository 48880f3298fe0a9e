export { createPayinProxy, type PayinProxy } from './create-proxy.js';
export {
  DEFAULT_LIMITS,
  DEFAULT_TIMEOUTS,
  type PayinProxyOptions,
  type PricedOrder,
  type PaymentUpdateSource,
  type ProxyLimits,
  type ProxyTimeouts,
} from './options.js';
export type { ProxyStore, PaymentRecord, OrderRecord, OrderPaymentRef, StoredView } from './store.js';
export { MemoryStore, createMemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { ProxyError } from './errors.js';
export { consoleLogger, silentLogger, type ProxyLogger } from './logger.js';
