export { createPayinProxy, type PayinProxy } from './create-proxy.js';
export type { ProxyRequestInfo } from './client-address.js';
export {
  DEFAULT_LIMITS,
  DEFAULT_TIMEOUTS,
  type PayinProxyOptions,
  type PricedOrder,
  type PaymentUpdateSource,
  type PaymentUpdateInfo,
  type ResolveOrderExtra,
  type ProxyLimits,
  type ProxyTimeouts,
} from './options.js';
export type { ProxyStore, PaymentRecord, OrderRecord, OrderPaymentRef, OutboxEntry, StoredView } from './store.js';
export type { ReconcileResult } from './reconcile.js';
export { MemoryStore, createMemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { ProxyError } from './errors.js';
export { consoleLogger, silentLogger, type ProxyLogger } from './logger.js';
export { consoleTokenAuth } from '../console-api/token-login.js';
export type { ConsoleOptions, ConsoleLogin } from '../console-api/console-options.js';
export type {
  ConsoleStore,
  ConsoleFilter,
  PaymentQuery,
  PaymentPage,
  HistoryEntry,
  AuditEntry,
} from './console-store.js';
