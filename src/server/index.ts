export { toNodeListener, remoteAddressOf, type FetchHandler, type NodeListenerOptions } from './node-listener.js';
export { serve, type RunningServer, type ServeOptions } from './serve.js';
export { systemClock, sleep, type Clock } from '../shared/clock.js';
export { ManualClock } from '../shared/manual-clock.js';
export { describeStoreUrl, storeFromUrl, storeUrlFromEnv, storeWarning, type StoreFromUrlOptions } from './store-url.js';
