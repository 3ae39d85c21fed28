import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';

/** How often kept PDFs are looked at for an archive time-stamp due for renewal. */
const RENEWAL_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * PDF signing and RFC 3161 time-stamping at run time: the PDF signing credentials are loaded (or
 * made) at start, so a bad key or certificate stops the start; every time-stamp attempt is
 * logged and counted (`tsa_requests_total` by use and outcome); closing abandons the requests
 * and retries in progress. With PDF_LONG_TERM, every CRL lookup for a DSS is counted
 * (`pdf_revocation_data_total` by outcome) and a missing or revoking one logged, and kept PDFs'
 * archive time-stamps are renewed every six hours when due (src/timestamping/pdf-renewal.ts; one
 * replica per file, by lease).
 */
export default fp(
  async function timestamping(app: FastifyInstance) {
    const { pdfSigner, timestamping, renewDuePdfs } = app.services;
    app.log.info(
      { pdfCertificateGenerated: pdfSigner.generated, timestamped: timestamping !== undefined },
      'PDF receipts are PAdES-signed; certificate at /.well-known/pdf-signing-cert.pem',
    );
    if (!timestamping) return;
    const requests = new Counter({
      name: 'tsa_requests_total',
      help: 'RFC 3161 time-stamp requests, by use (checkpoint, pdf) and outcome (ok, failed)',
      labelNames: ['use', 'outcome'],
      registers: [app.metrics.registry],
    });
    timestamping.onOutcome((outcome) => {
      const use = outcome.treeSize === undefined ? 'pdf' : 'checkpoint';
      requests.inc({ use, outcome: outcome.ok ? 'ok' : 'failed' });
      if (outcome.ok) app.log.info(outcome, 'time-stamp authority answered');
      else app.log.warn(outcome, 'time-stamp authority failed; the token is not kept');
    });
    app.addHook('onClose', () => timestamping.close());
    if (!renewDuePdfs) return;
    const revocation = new Counter({
      name: 'pdf_revocation_data_total',
      help: "CRLs looked up for PDF receipts' DSS, by outcome (embedded, unavailable, revoked)",
      labelNames: ['outcome'],
      registers: [app.metrics.registry],
    });
    timestamping.onRevocation((finding) => {
      revocation.inc({ outcome: finding.outcome });
      if (finding.outcome === 'revoked')
        app.log.error(finding, 'a certificate of the PDF is revoked: the PDF is not archived');
      else if (finding.outcome === 'unavailable')
        app.log.warn(finding, 'a published CRL could not be had: the DSS lacks it');
    });
    const renew = async () => {
      const run = await renewDuePdfs();
      if (run.renewed > 0 || run.failed.length > 0)
        app.log.info(run, 'archive time-stamps renewed');
    };
    const timer = setInterval(() => {
      renew().catch((err: unknown) => app.log.error({ err }, 'archive time-stamp renewal failed'));
    }, RENEWAL_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', () => clearInterval(timer));
  },
  { name: 'timestamping', dependencies: ['services', 'metrics'] },
);
