/** Builds the /verify page into dist/public; returns that directory. */
export function buildVerifyPage(): Promise<string>;
