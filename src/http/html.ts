/** Text placed in an HTML page the service serves: every character that could open markup, escaped. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
