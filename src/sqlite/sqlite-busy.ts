/**
 * SQLite waits out another connection's lock for busy_timeout, except where waiting could deadlock: there it answers
 * SQLITE_BUSY ("database is locked") at once. Switching a file to WAL meets that case when two processes open the
 * same new file together (a deploy that starts the next process before the last has stopped), and the second then
 * failed to start. Such a statement is tried again here, for as long as busy_timeout would have waited.
 */

/** The busy_timeout the store sets, in ms: how long a statement waits for another connection's lock. */
export const BUSY_TIMEOUT_MS = 5_000;

const RETRY_EVERY_MS = 50;

/** better-sqlite3 and bun:sqlite give SQLite's code; node:sqlite gives only the words. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) || /database is locked/i.test(String((error as Error)?.message));
}

/** `work` (a synchronous statement), tried again while SQLite answers it busy, for up to BUSY_TIMEOUT_MS. */
export function retriedWhileBusy<T>(work: () => T): T {
  for (let waited = 0; ; waited += RETRY_EVERY_MS) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || waited >= BUSY_TIMEOUT_MS) throw error;
      // The store is synchronous (as its drivers are): the thread sleeps, as SQLite's own busy wait does.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_EVERY_MS);
    }
  }
}
