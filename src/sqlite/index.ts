export { createSqliteStore, type SqliteStoreOptions } from './create-sqlite-store.js';
export type { SqliteDriverName } from './sqlite-driver.js';
export { SqliteStore, type SqliteStoreSettings } from './sqlite-store.js';
export { SqliteStoreError } from './sqlite-errors.js';
