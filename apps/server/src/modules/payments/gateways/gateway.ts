import type { RequestLanguage } from '@mutenet/contract';
import type { GatewayOutcome } from '../../orders/orders.service.js';

/** What a gateway reports about one payment, once its signature has been checked. */
export type PaymentNotification = {
  /** The gateway's own id of the event: the same event is applied once, however often it arrives. */
  eventId: string;
  orderNo: string;
  outcome: GatewayOutcome;
  /** Minor units and currency the gateway says it took; checked against the order when present. */
  amountMinor: number | null;
  currency: string | null;
};

export type PayableOrder = { no: string; amountMinor: number; currency: string };

/** A notification that cannot be trusted or does not fit its order: refused, logged, and nothing changes. */
export class NotificationRejected extends Error {}

/** One payment provider. Real gateways plug in here; the sandbox is one of them. */
export interface PaymentGateway {
  readonly id: string;
  name(language: RequestLanguage): string;
  /** Starts paying: the gateway's page to send the customer to, or null when the checkout page shows the payment. */
  start(
    order: PayableOrder,
    context: { publicUrl: string; language: RequestLanguage },
  ): Promise<{ redirect: string | null }>;
  /** Reads a notification and checks its signature; throws NotificationRejected when it cannot be trusted. */
  verify(request: { headers: Record<string, string | string[] | undefined>; rawBody: string }): PaymentNotification;
}
