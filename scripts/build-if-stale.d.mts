/** The files and folders whose change calls for a new build. */
export const INPUTS: string[];
/** Where a finished build is recorded, relative to the repository. */
export const STAMP: string;
/** Whether `dir` (default: this repository) needs a build before it starts. */
export function isStale(dir?: string): boolean;
/** Records a finished build in `dir`. */
export function writeStamp(dir?: string): void;
