export { createPayinProxy, type PayinProxy } from './create-proxy.js';
export type { ProxyRequestInfo } from './http/client-address.js';
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
export type { ProxyStore, PaymentRecord, OrderRecord, OrderPaymentRef, OutboxEntry, StoredView } from './infrastructure/store.js';
export type { ReconcileResult } from './use-cases/reconcile.js';
export type { StoreCheck, StoreState } from './infrastructure/store-health.js';
export { MemoryStore, createMemoryStore, type MemoryStoreOptions } from './infrastructure/memory-store.js';
export { ProxyError } from './http/errors.js';
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
} from './infrastructure/console-store.js';
