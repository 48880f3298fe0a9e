export { createSqliteStore, type SqliteStoreOptions } from './create-sqlite-store.js';
export { SqliteStore, type SqliteStoreSettings } from './sqlite-store.js';
