export { createPostgresStore, DEFAULT_SCHEMA, type PostgresStoreOptions } from './create-postgres-store.js';
export { PostgresStoreError } from './postgres-errors.js';
export { PostgresStore, type PostgresStoreSettings } from './postgres-store.js';
