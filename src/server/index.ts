export { toNodeListener, remoteAddressOf, type FetchHandler, type NodeListenerOptions } from './node-listener.js';
export { serve, type RunningServer } from './serve.js';
