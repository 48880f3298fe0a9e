/**
 * SQLite's refusals to write, said so that the operator knows which file is in the way and what to do. SQLite
 * answers "attempt to write a readonly database" or "unable to open database file" and names nothing, while the
 * file an operator then looks at, payin.db, is often writable: what it cannot write is its folder, or the -wal and
 * -shm files beside it, which a process that ran as another user (root, trying the server out) leaves behind owned
 * by that user when it is killed, holding its latest writes. The error keeps SQLite's words and code, and its cause.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

export class SqliteStoreError extends Error {
  constructor(
    message: string,
    /** The driver's code (SQLITE_READONLY, SQLITE_CANTOPEN, ...), when it gave one. */
    readonly code: string | undefined,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'SqliteStoreError';
  }
}

/** better-sqlite3 and bun:sqlite give SQLite's code; node:sqlite gives only the words. */
const UNWRITABLE_CODE = /^SQLITE_(READONLY|CANTOPEN|PERM)/;
const UNWRITABLE_WORDS = /attempt to write a readonly database|unable to open database file/i;

/**
 * `error` as it is, or, when SQLite could not write the database at `path`, a SqliteStoreError that names the files
 * this process may not write (the folder, the database, its -wal and -shm) and the fix.
 */
export function explained(path: string, error: unknown): unknown {
  if (error instanceof SqliteStoreError || !(error instanceof Error)) return error;
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : undefined;
  if (!(code && UNWRITABLE_CODE.test(code)) && !UNWRITABLE_WORDS.test(error.message)) return error;
  const folder = dirname(path);
  const refusals = [folder, path, `${path}-wal`, `${path}-shm`].map((file) => ({ file, refusal: refusalOf(file) }));
  const inTheWay = refusals.filter((r) => r.refusal !== undefined).map((r) => r.file);
  const why = refusals.some((r) => r.refusal === 'EROFS')
    ? `${folder} is on a read-only volume: mount it writable, or point the store at a folder on one that is`
    : inTheWay.length
      ? `this process may not write ${inTheWay.join(', ')}: make the folder and every payin file in it (the database, its -wal and -shm, which a killed process leaves owned by the user it ran as) writable by the user the proxy runs as (chown -R to that user, chmod u+w), or point the store at a folder that user may write`
      : 'is its volume mounted read-only?';
  return new SqliteStoreError(`the SQLite ledger ${path} cannot be written: ${why} (SQLite: ${error.message})`, code, { cause: error });
}

/** Why this process may not write `file` (EACCES, EROFS, ...), or undefined when it may or the file is not there. */
function refusalOf(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    accessSync(file, constants.W_OK);
    return undefined;
  } catch (error) {
    return String((error as { code?: unknown }).code ?? 'EACCES');
  }
}
