/**
 * What the SQLite store's ping (health checks: `/healthz`, `payin_store_up`, `proxy.checkStore()`) makes sure of:
 * that the ledger can still be written, to the file a restart will open. SQLite alone tells neither: a file that
 * went read-only (its permissions, a volume remounted read-only) answers every read, and a file that was removed or
 * replaced under a running process (a cleanup, a deploy that swapped the directory) goes on taking reads and writes
 * on the open handle, into a file that no restart finds again.
 */
import { statSync } from 'node:fs';
import type { SqliteConnection } from './sqlite-driver.js';

interface FileIdentity {
  file: string;
  dev: number;
  ino: number;
}

export class SqliteFileCheck {
  readonly #db: SqliteConnection;
  readonly #opened: FileIdentity | undefined;

  /** Takes the identity of the file now, as the store opens it; an in-memory database has none. */
  constructor(db: SqliteConnection) {
    this.#db = db;
    const file = String(
      db
        .prepare('PRAGMA database_list')
        .all()
        .find((row) => row.name === 'main')?.file ?? '',
    );
    this.#opened = file ? identity(file) : undefined;
  }

  /** Throws what makes the store unusable now; returns when it can be written and is still its file. */
  check(): void {
    this.#writeRolledBack();
    const opened = this.#opened;
    if (!opened) return;
    const now = identityOrNothing(opened.file);
    if (now?.dev !== opened.dev || now.ino !== opened.ino) {
      throw new Error(
        `the SQLite file ${opened.file} was removed or replaced since it was opened: what the ledger writes now is lost at the next start (restore the file, then restart)`,
      );
    }
  }

  /**
   * Setting user_version to the value it has writes the header page and changes nothing; the rollback leaves the
   * file as it was. A read-only file refuses it as it refuses every write of the ledger.
   */
  #writeRolledBack(): void {
    const version = Number(this.#db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
    this.#db.exec('BEGIN IMMEDIATE');
    let failure: unknown;
    try {
      this.#db.exec(`PRAGMA user_version = ${version}`);
    } catch (error) {
      failure = error;
    }
    try {
      this.#db.exec('ROLLBACK');
    } catch (error) {
      failure ??= error; // after some failures SQLite has rolled back itself: the first error is the one to tell
    }
    if (failure !== undefined) throw failure;
  }
}

function identity(file: string): FileIdentity {
  const { dev, ino } = statSync(file);
  return { file, dev, ino };
}

function identityOrNothing(file: string): FileIdentity | undefined {
  try {
    return identity(file);
  } catch {
    return undefined; // removed, or its folder is: either way not the file that was opened
  }
}
