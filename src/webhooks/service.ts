import { randomUUID } from 'node:crypto';
import { LIMITS } from '../contract/limits.js';
import { ServiceError } from '../errors.js';
import type { EventType, Scheme } from './events.js';
import type { Delivery, DeliveryPage, Subscription, WebhookStore } from './ports.js';
import { newSecret } from './signatures.js';
import { TargetRefused, type TargetPolicy } from './target.js';

/**
 * A tenant's webhook subscriptions and their deliveries (`/api/v1/webhooks`). A subscription's
 * target is checked when it is made (and again before every attempt: a name may resolve
 * elsewhere later); its v1 secret is shown once, in the answer that creates it. A tenant holds at
 * most LIMITS.webhookSubscriptions. A disabled subscription (its receiver answered 410 Gone)
 * gets nothing more: no redelivery and no test event (404, as for none: subscribe again).
 */

export interface SubscriptionRequest {
  url: string;
  eventTypes: EventType[];
  /** Default: v1a alone. */
  schemes?: Scheme[] | undefined;
}

export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly targets: TargetPolicy,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async subscribe(tenant: string, request: SubscriptionRequest): Promise<Subscription> {
    await this.targets.check(request.url).catch((err: unknown) => {
      if (err instanceof TargetRefused)
        throw new ServiceError('webhook_target_refused', err.message, {
          details: [{ path: 'url', message: err.message }],
        });
      throw err;
    });
    const schemes = [...new Set(request.schemes ?? (['v1a'] as Scheme[]))];
    const limit = LIMITS.webhookSubscriptions;
    const created = await this.store.createSubscription(
      {
        id: randomUUID(),
        tenant,
        url: request.url,
        eventTypes: [...new Set(request.eventTypes)],
        schemes,
        secret: schemes.includes('v1') ? newSecret() : null,
      },
      limit,
    );
    if (!created) {
      const message = `a tenant holds at most ${limit} webhook subscriptions: delete one first`;
      throw new ServiceError('webhook_limit_reached', message, {
        details: { limitSubscriptions: limit },
      });
    }
    return created;
  }

  list(tenant: string): Promise<Subscription[]> {
    return this.store.listSubscriptions(tenant);
  }

  async get(tenant: string, id: string): Promise<Subscription> {
    const found = await this.store.findSubscription(tenant, id);
    if (!found) throw new ServiceError('webhook_not_found', 'no such webhook subscription');
    return found;
  }

  /** Removes the subscription and its deliveries; the subscription as it was. */
  async unsubscribe(tenant: string, id: string): Promise<Subscription> {
    const found = await this.get(tenant, id);
    if (!(await this.store.deleteSubscription(tenant, id)))
      throw new ServiceError('webhook_not_found', 'no such webhook subscription');
    return found;
  }

  async deliveries(
    tenant: string,
    id: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<DeliveryPage> {
    await this.get(tenant, id);
    return this.store.listDeliveries(id, limit, cursor);
  }

  async redeliver(tenant: string, id: string, deliveryId: string): Promise<void> {
    await this.get(tenant, id);
    if (!(await this.store.redeliver(id, deliveryId, this.clock())))
      throw new ServiceError('webhook_not_found', 'no such delivery of this subscription');
  }

  /** Queues a `webhook.test` event for this subscription alone; the event's id. */
  async test(tenant: string, id: string): Promise<string> {
    const subscription = await this.get(tenant, id);
    if (subscription.disabledAt)
      throw new ServiceError('webhook_not_found', 'the subscription is disabled: subscribe again');
    return this.store.recordTestEvent(subscription, {
      subscriptionId: subscription.id,
      message: 'a test event: this endpoint receives the events it subscribed to',
    });
  }
}

export type { Delivery, Subscription };
