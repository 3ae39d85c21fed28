import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIMITS } from '../../contract/limits.js';
import { API_PREFIX } from '../../contract/links.js';
import {
  CreatedWebhookSubscription,
  WEBHOOK_DELIVERY_EXAMPLE,
  WEBHOOK_SUBSCRIPTION_EXAMPLE,
  WebhookDelivery,
  WebhookSubscription,
  WebhookSubscriptionRequest,
  WebhookTestAnswer,
} from '../../contract/webhooks.js';
import type { Delivery, Subscription } from '../../webhooks/ports.js';
import { linkNextPage } from '../next-page.js';
import { principalOf } from '../plugins/auth.js';
import { PageQuery } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

const IdParams = z.object({ id: z.uuid().describe('Subscription id (uuid)') });
const DeliveryParams = IdParams.extend({ deliveryId: z.uuid().describe('Delivery id (uuid)') });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function subscriptionView(s: Subscription): WebhookSubscription {
  return {
    id: s.id,
    url: s.url,
    eventTypes: s.eventTypes,
    schemes: s.schemes,
    createdAt: s.createdAt.toISOString(),
    disabledAt: iso(s.disabledAt),
    disabledReason: s.disabledReason,
  };
}
type WebhookSubscription = z.infer<typeof WebhookSubscription>;

function deliveryView(d: Delivery): z.infer<typeof WebhookDelivery> {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: d.state === 'pending' ? iso(d.nextAttemptAt) : null,
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
    createdAt: d.createdAt.toISOString(),
  };
}

const DOCS =
  ' (docs/webhooks.md). Needs a key with the webhooks scope; a subscription belongs to its tenant.';

/** /webhooks: a tenant's subscriptions, their deliveries, redelivery and a test event. */
export default async function webhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = () => app.services.webhooks.service;
  const base = { config: { scope: 'webhooks' as const }, security: [{ apiKey: [] }] };

  app.post('/webhooks', {
    config: base.config,
    schema: {
      tags: ['webhooks'],
      summary: 'Subscribe a URL to events',
      description:
        'The target must be https and resolve to public addresses only (an operator may allow ' +
        'private networks); the v1 secret is in this answer only; a tenant holds at most ' +
        `${LIMITS.webhookSubscriptions} subscriptions (400 beyond)` +
        DOCS,
      security: base.security,
      body: WebhookSubscriptionRequest,
      response: { 201: CreatedWebhookSubscription, ...errorResponses(400, 401, 403, 429, 503) },
    },
    handler: async (request, reply) => {
      const created = await service().subscribe(principalOf(request).tenant, request.body);
      return reply.code(201).send({ ...subscriptionView(created), secret: created.secret });
    },
  });

  app.get('/webhooks', {
    config: base.config,
    schema: {
      tags: ['webhooks'],
      summary: "The tenant's subscriptions, oldest first",
      description: 'Secrets are never shown again' + DOCS,
      security: base.security,
      response: {
        200: z.array(WebhookSubscription).meta({ example: [WEBHOOK_SUBSCRIPTION_EXAMPLE] }),
        ...errorResponses(401, 403, 429, 503),
      },
    },
    handler: async (request) =>
      (await service().list(principalOf(request).tenant)).map(subscriptionView),
  });

  app.get('/webhooks/:id', {
    config: base.config,
    schema: {
      tags: ['webhooks'],
      summary: 'One subscription',
      description: 'Whether it is disabled (a 410 Gone answer) and why' + DOCS,
      security: base.security,
      params: IdParams,
      response: { 200: WebhookSubscription, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request) =>
      subscriptionView(await service().get(principalOf(request).tenant, request.params.id)),
  });

  app.delete('/webhooks/:id', {
    config: base.config,
    schema: {
      tags: ['webhooks'],
      summary: 'Remove a subscription and its deliveries',
      description: 'Nothing more is sent to it; the answer is the subscription removed' + DOCS,
      security: base.security,
      params: IdParams,
      response: { 200: WebhookSubscription, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request) =>
      subscriptionView(await service().unsubscribe(principalOf(request).tenant, request.params.id)),
  });

  app.get('/webhooks/:id/deliveries', {
    config: base.config,
    schema: {
      tags: ['webhooks'],
      summary: "A subscription's deliveries, newest first",
      description:
        'State, attempts, last status and error, next attempt; paged with ?limit= (default 50, ' +
        'max 200) and ?cursor= (x-next-cursor header)' +
        DOCS,
      security: base.security,
      params: IdParams,
      querystring: PageQuery,
      response: {
        200: z.array(WebhookDelivery).meta({ example: [WEBHOOK_DELIVERY_EXAMPLE] }),
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const { limit, cursor } = request.query;
      const page = await service().deliveries(principalOf(request).tenant, id, limit, cursor);
      linkNextPage(reply, `${API_PREFIX}/webhooks/${id}/deliveries`, {
        limit,
        cursor: page.nextCursor,
      });
      return page.items.map(deliveryView);
    },
  });

  app.post('/webhooks/:id/deliveries/:deliveryId/redeliver', {
    config: base.config,
    schema: {
      tags: ['webhooks'],
      summary: 'Send a delivery again',
      description:
        'From now, with the same webhook-id and body, its attempts counted afresh; 404 for a ' +
        'disabled subscription (subscribe again)' +
        DOCS,
      security: base.security,
      params: DeliveryParams,
      response: {
        202: z.strictObject({ deliveryId: z.uuid() }).meta({
          id: 'WebhookRedeliverAnswer',
          example: { deliveryId: '8a1d2c3b-4e5f-4a6b-9c7d-0e1f2a3b4c5d' },
        }),
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { id, deliveryId } = request.params;
      await service().redeliver(principalOf(request).tenant, id, deliveryId);
      return reply.code(202).send({ deliveryId });
    },
  });

  app.post('/webhooks/:id/test', {
    config: base.config,
    schema: {
      tags: ['webhooks'],
      summary: 'Send a webhook.test event to this subscription',
      description:
        'Delivered and retried like any event; 404 for a disabled subscription (subscribe again)' +
        DOCS,
      security: base.security,
      params: IdParams,
      response: { 202: WebhookTestAnswer, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request, reply) => {
      const eventId = await service().test(principalOf(request).tenant, request.params.id);
      return reply.code(202).send({ eventId });
    },
  });
}
