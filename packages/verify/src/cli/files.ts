import fs from 'node:fs';
import { Usage } from './options.js';

/** A local file read whole, refused before reading when it is larger than `limit` bytes. */
export function readFileBounded(file: string, limit: number, what: string): Buffer {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new Usage(`${file}: no such file`);
  }
  if (size > limit) throw new Usage(`${file}: larger than ${limit} bytes, not ${what}`);
  return fs.readFileSync(file);
}

/** The first `length` bytes of a file (fewer when it is shorter). */
export function readFileHead(file: string, length: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(length);
    return head.subarray(0, fs.readSync(fd, head, 0, length, 0));
  } finally {
    fs.closeSync(fd);
  }
}
