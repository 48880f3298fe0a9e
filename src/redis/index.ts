export { createRedisStore, type RedisStoreOptions } from './create-redis-store.js';
export { RedisStore } from './redis-store.js';
export { DEFAULT_KEY_PREFIX, DEFAULT_TTL_MS } from './redis-keys.js';
