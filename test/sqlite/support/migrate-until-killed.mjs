// Opens a SQLite ledger of an older schema with the compiled store, which brings it forward in its constructor,
// and stops dead inside the migration: once the back-fill of the listing columns has written ROWS rows, it writes
// `crash point migration` and blocks the thread for good (the migration is synchronous: no await can stop it), so
// that the test kills it there with SIGKILL. Arguments: the compiled build's folder, the file, ROWS.
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [build, path, rows] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(join(build, file)).href);
const { openSqlite } = await load('sqlite/sqlite-driver.js');
const { SqliteStore } = await load('sqlite/sqlite-store.js');

const db = openSqlite(path);
let written = 0;
const halted = {
  ...db,
  prepare: (sql) => {
    const statement = db.prepare(sql);
    if (!sql.startsWith('UPDATE payments SET listed_at')) return statement;
    return {
      ...statement,
      run: (...params) => {
        const result = statement.run(...params);
        if (++written === Number(rows)) {
          writeSync(1, 'crash point migration\n');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        }
        return result;
      },
    };
  },
};
new SqliteStore(halted);
writeSync(1, 'migrated\n');
