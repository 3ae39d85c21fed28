import { PDFDict, PDFHexString, PDFName, type PDFObject, PDFRef, PDFString } from 'pdf-lib';
import { dictOf, elements, name } from './objects.js';
import type { State } from './state.js';

/**
 * What each object of the signed document is, in words a report can name ("page 1's content",
 * "the attachment receipt-bundle.json"), found by walking the signed revision from its catalog:
 * the page tree and each page's content, resources and annotations, the form and its fields, the
 * attachments, the document information and metadata. Bounded: a hostile tree stops the walk.
 */
export type Roles = Map<number, string>;

const MAX_NODES = 4096;

export function rolesOf(state: State, root: number): Roles {
  const roles: Roles = new Map([[root, 'the catalog']]);
  const catalog = dictOf(state.object(root));
  if (!catalog) return roles;
  const mark = (value: PDFObject | undefined, role: string): PDFObject | undefined => {
    if (value instanceof PDFRef && !roles.has(value.objectNumber) && roles.size < MAX_NODES) {
      roles.set(value.objectNumber, role);
    }
    return state.resolve(value);
  };
  // the form first: a signature field that is also a page's widget is named as the field
  form(state, catalog, mark);
  pages(state, catalog, mark);
  attachments(state, catalog, mark);
  mark(state.trailer.get(PDFName.of('Info')), 'the document information');
  mark(catalog.get(PDFName.of('Metadata')), 'the XMP metadata');
  mark(catalog.get(PDFName.of('Outlines')), 'the outline');
  mark(catalog.get(PDFName.of('OpenAction')), 'the open action');
  return roles;
}

type Mark = (value: PDFObject | undefined, role: string) => PDFObject | undefined;

function pages(state: State, catalog: PDFDict, mark: Mark): void {
  const todo: (PDFObject | undefined)[] = [catalog.get(PDFName.of('Pages'))];
  let page = 0;
  for (let visited = 0; todo.length > 0 && visited < MAX_NODES; visited += 1) {
    const value = todo.shift();
    const node = dictOf(state.resolve(value));
    if (!node) continue;
    if (name(node, 'Type') === 'Pages' || node.has(PDFName.of('Kids'))) {
      mark(value, 'the page tree');
      todo.push(...elements(state.resolve(node.get(PDFName.of('Kids')))));
      continue;
    }
    page += 1;
    mark(value, `page ${page}`);
    const contents = mark(node.get(PDFName.of('Contents')), `page ${page}'s content`);
    for (const part of elements(contents)) mark(part, `page ${page}'s content`);
    mark(node.get(PDFName.of('Resources')), `page ${page}'s resources`);
    const annots = mark(node.get(PDFName.of('Annots')), `page ${page}'s annotation list`);
    for (const annot of elements(annots)) mark(annot, `an annotation on page ${page}`);
  }
}

function form(state: State, catalog: PDFDict, mark: Mark): void {
  const acroForm = dictOf(mark(catalog.get(PDFName.of('AcroForm')), 'the AcroForm'));
  if (!acroForm) return;
  const fields = mark(acroForm.get(PDFName.of('Fields')), "the AcroForm's field list");
  for (const field of elements(fields).slice(0, MAX_NODES)) {
    const dict = dictOf(state.resolve(field));
    const signature = dict !== undefined && name(dict, 'FT') === 'Sig';
    mark(field, signature ? 'the signature field' : 'a form field');
    if (signature) mark(dict.get(PDFName.of('V')), 'the signature dictionary');
  }
}

function attachments(state: State, catalog: PDFDict, mark: Mark): void {
  for (const spec of elements(state.resolve(catalog.get(PDFName.of('AF')))).slice(0, 64)) {
    const dict = dictOf(state.resolve(spec));
    const label = dict ? fileName(dict) : 'unnamed';
    mark(spec, `the attachment ${label}`);
    const ef = dict
      ? dictOf(mark(dict.get(PDFName.of('EF')), `the attachment ${label}`))
      : undefined;
    if (ef) mark(ef.get(PDFName.of('F')), `the attachment ${label}`);
  }
  const names = dictOf(mark(catalog.get(PDFName.of('Names')), 'the name dictionary'));
  const todo = [
    names ? mark(names.get(PDFName.of('EmbeddedFiles')), 'the attachment list') : undefined,
  ];
  for (let visited = 0; todo.length > 0 && visited < MAX_NODES; visited += 1) {
    const node = dictOf(todo.pop());
    if (!node) continue;
    for (const kid of elements(node.get(PDFName.of('Kids'))))
      todo.push(mark(kid, 'the attachment list'));
    const pairs = elements(node.get(PDFName.of('Names')));
    for (let i = 0; i + 1 < pairs.length && i < 2 * MAX_NODES; i += 2) {
      const key = pairs[i];
      const label =
        key instanceof PDFString || key instanceof PDFHexString
          ? printable(key.decodeText())
          : 'unnamed';
      const spec = dictOf(mark(pairs[i + 1], `the attachment ${label}`));
      const ef = spec
        ? dictOf(mark(spec.get(PDFName.of('EF')), `the attachment ${label}`))
        : undefined;
      if (ef) mark(ef.get(PDFName.of('F')), `the attachment ${label}`);
    }
  }
}

function fileName(spec: PDFDict): string {
  const value = spec.get(PDFName.of('UF')) ?? spec.get(PDFName.of('F'));
  return value instanceof PDFString || value instanceof PDFHexString
    ? printable(value.decodeText())
    : 'unnamed';
}

/** A name from the file, short and printable whatever it holds. */
export function printable(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 60)}...` : clean;
}
