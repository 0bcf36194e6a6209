import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Owner only: the stores hold customer mail, manifests and the history of who taught what. */
const PRIVATE_FILE = 0o600;
const PRIVATE_FOLDER = 0o700;

/**
 * Ready a SQLite file to be opened by its owner alone: its folder made 0700 when this makes it (a
 * folder that was there is the operator's, and left as it is), the file made 0600 before SQLite
 * opens it, or brought down to 0600 if an older version left it readable by everyone (0644, beside
 * secrets kept 0600). SQLite gives its -wal and -shm files the mode of the database file; those an
 * older version left are brought down too.
 */
export function privateSqliteFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_FOLDER });
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, PRIVATE_FILE);
    } catch (error) {
      // A -wal or -shm that is not there yet is made with the file's mode; only the file must be.
      if (path === file || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
