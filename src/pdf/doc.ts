import type PDFDocument from 'pdfkit';

/** A pdfkit document instance. */
export type Doc = InstanceType<typeof PDFDocument>;
