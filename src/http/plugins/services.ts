import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import type { DefaultBranchSource } from '../../receipts/ports.js';
import { createServices, type Services } from '../../services.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The domain, wired to the store by the composition root (src/services.ts). */
    services: Services;
  }
}

export interface ServicesPluginOptions {
  config: Config;
  /** The GitHub App's default-branch answers, when the app is configured (src/app.ts). */
  defaultBranches?: DefaultBranchSource | undefined;
}

/**
 * Builds the services once, registers the active signing key in the ring, and says at start-up
 * which keys in the store no chain of trust reaches (they verify nothing).
 */
export default fp(
  async function services(app: FastifyInstance, opts: ServicesPluginOptions) {
    const services = await createServices(opts.config, app.repos, {
      defaultBranches: opts.defaultBranches,
      onIssued: (decision) => app.metrics.issued(decision),
      onIntegrityFailure: (failure) => {
        app.metrics.integrityFailed(failure.use);
        app.log.error(
          { integrityFailure: failure },
          'a stored receipt does not verify: the store was edited behind the service; refused',
        );
      },
      onStoredPdfMismatch: (mismatch) => {
        app.metrics.integrityFailed('stored-pdf');
        app.log.error(
          mismatch,
          'the stored PDF is not the one the service signed: the store was edited; made again',
        );
      },
    });
    const registered = await services.registerSigner();
    if (!registered) app.log.warn('SIGNING_DISABLED=true: receipts are issued unsigned');
    else if (registered.retired) {
      app.log.warn({ kid: services.signer?.kid }, 'signing with a key that has been rotated out');
    }
    const { untrusted } = await services.keyTrust();
    if (untrusted.length > 0) {
      app.log.warn(
        { untrusted },
        'signing keys in the store without a valid endorsement are ignored (see `receipts signing-keys endorse`)',
      );
    }
    if (!opts.config.publicUrl) {
      app.log.warn(
        { logOrigin: opts.config.logOrigin, serviceUrl: opts.config.serviceUrl },
        `PUBLIC_URL is not set: PDF receipts link to ${opts.config.serviceUrl}, which only this machine reaches; check-run links are relative, ` +
          'and unless LOG_ORIGIN is set the log uses a default origin that other deployments share',
      );
    }
    app.log.info(
      {
        kid: services.signer?.kid,
        keyGenerated: services.signingKey?.generated ?? false,
        keyFile: services.signingKey?.file,
        store: opts.config.store.kind === 'embedded' ? opts.config.dataDir : 'postgres',
        logOrigin: opts.config.logOrigin,
        noteVerifierKey: services.anchoring.verifierKey,
        githubApp: githubStatus(opts.config),
      },
      'receipts signed with this key; verify page at /verify, API docs at /docs',
    );
    app.decorate('services', services);
  },
  { name: 'services', dependencies: ['storage', 'metrics'] },
);

/** Whether the GitHub App runs, and if not why (a partial configuration never gets here). */
export function githubStatus(config: Config): string {
  return config.github
    ? `enabled (app ${config.github.appId})`
    : 'disabled: APP_ID, WEBHOOK_SECRET and PRIVATE_KEY are unset (register one at /probot)';
}
