import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ScreeningListFormatError } from '../screening/list-format.js';
import { ScreeningLists, type ScreeningListSource } from '../screening/lists.js';

const LIST_FILE = /\.csv$/i;

/**
 * The lists of one directory (SCREENING_LISTS_DIR): one list per `*.csv` file, its source id the
 * file name without extension. Symbolic links are followed (Kubernetes ConfigMap volumes are
 * links); dot-files and directories are skipped. Each read takes the file as it is now.
 */
export function screeningListDirectory(dir: string): ScreeningListSource {
  let files: Map<string, string> | undefined;
  return {
    async lists() {
      files = await listFiles(dir);
      return new Map([...files].map(([sourceId, file]) => [sourceId, path.basename(file)]));
    },
    async read(sourceId) {
      const file = files?.get(sourceId);
      if (file === undefined) throw new Error(`no list file for source id "${sourceId}"`);
      return readFile(file);
    },
  };
}

/** The lists of SCREENING_LISTS_DIR, or none without a directory (commands that issue nothing). */
export function loadScreeningLists(dir: string | undefined): Promise<ScreeningLists> {
  return ScreeningLists.load(dir === undefined ? undefined : screeningListDirectory(dir));
}

/** `*.csv` files of `dir` by source id; two files mapping to one id are refused. */
async function listFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) {
    const file = path.join(dir, name);
    if (name.startsWith('.') || !LIST_FILE.test(name) || !(await stat(file)).isFile()) continue;
    const sourceId = name.replace(LIST_FILE, '');
    if (files.has(sourceId)) {
      throw new ScreeningListFormatError(`two list files map to source id "${sourceId}"`);
    }
    files.set(sourceId, file);
  }
  return files;
}
