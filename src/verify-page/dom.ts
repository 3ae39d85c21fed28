/// <reference lib="dom" />

/** The few DOM helpers the page needs: text only, never HTML, so nothing in a file can inject. */
export const $ = <T extends HTMLElement = HTMLElement>(id: string): T =>
  document.getElementById(id) as T;

export function el(tag: string, className = '', text = ''): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

/** A `<dt>`/`<dd>` pair; `value` may be text or nodes. */
export function row(label: string, ...value: (string | Node)[]): HTMLElement[] {
  const dd = el('dd');
  dd.append(...value);
  return [el('dt', '', label), dd];
}
