import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';

/**
 * PDF signing and RFC 3161 time-stamping at run time: the PDF signing credentials are loaded (or
 * made) at start, so a bad key or certificate stops the start; every time-stamp attempt is
 * logged and counted (`tsa_requests_total` by use and outcome); closing abandons the requests
 * and retries in progress.
 */
export default fp(
  async function timestamping(app: FastifyInstance) {
    const { pdfSigner, timestamping } = app.services;
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
  },
  { name: 'timestamping', dependencies: ['services', 'metrics'] },
);
