/** Probot's default webhook path. */
export const WEBHOOK_PATH = '/api/github/webhooks';
