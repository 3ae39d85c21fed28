import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded store's files are private to the service's user. PGlite creates its
 * files through Emscripten's file system with explicit 0666 modes, which the process umask does
 * not narrow, so the store directory is made 0700 before PGlite opens it (nothing inside is
 * reachable by others), and every file in it is set to 0600 once the store is open and again
 * when it closes, so the files at rest carry private modes themselves.
 */
export function preparePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** chmod 0700 every directory and 0600 every file under `dir` (symbolic links untouched). */
export function makeTreePrivate(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      fs.chmodSync(file, 0o700);
      makeTreePrivate(file);
    } else if (entry.isFile()) {
      fs.chmodSync(file, 0o600);
    }
  }
}
