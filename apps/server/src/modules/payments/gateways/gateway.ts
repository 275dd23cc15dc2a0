import type { RequestLanguage } from '@mutenet/contract';
import type { GatewayOutcome } from '../../orders/orders.service.js';

/**
 * What a gateway reports about one payment of an order, once the notification's signature has been checked (or once
 * the gateway was asked). The payments service checks it against the order and applies it once, by its id.
 */
export type PaymentEvent = {
  /**
   * The gateway's own id of the event: the same event is applied once, however often and wherever it arrives. Events
   * read back from the gateway (reconciliation) carry an id made of the payment's id and its state, so that a state
   * learnt twice is also recorded once.
   */
  eventId: string;
  /** Our order number, as the gateway carries it (metadata, external reference, order id). */
  orderNo: string;
  outcome: GatewayOutcome;
  /**
   * The amount the gateway took, in major units as an exact decimal string ("12.90", "4990"), and its currency
   * (ISO 4217, upper case); null when the event does not carry them. Checked against the order's price.
   */
  amount: string | null;
  currency: string | null;
  /** The gateway's id of the payment itself (what a refund names), when the event carries it. */
  paymentRef: string | null;
};

/** The order as a gateway sees it when a payment starts. */
export type GatewayOrder = {
  no: string;
  /** The price in our minor units of the currency, and how many decimals the currency has in our catalogue. */
  amountMinor: number;
  decimals: number;
  currency: string;
  /** The customer's email, to prefill the gateway's page. */
  email: string;
  /** What the customer buys, in their language: the plan's name and the package. */
  description: string;
  /** When the order times out (ms since the epoch): a gateway page that can expire should not outlive it much. */
  dueAt: number;
};

export type StartContext = {
  language: RequestLanguage;
  /** Where the gateway sends the customer back: the order's details screen in the panel. */
  returnUrl: string;
  /** Where the gateway posts its notifications: `{PUBLIC_URL}/payment/notify/<gateway>`. */
  notifyUrl: string;
};

/** Where the customer pays, and the gateway's id of what was started (session, preference, invoice). */
export type Started = { redirect: string | null; reference: string | null };

/** One payment the gateway was asked about: what `start` returned for the order. */
export type StartedPayment = { orderNo: string; reference: string; currency: string };

/** A paid order to refund in full at the gateway. */
export type RefundRequest = {
  orderNo: string;
  paymentRef: string;
  amountMinor: number;
  decimals: number;
  currency: string;
};

/** A notification as it arrived: the raw body (signatures cover it byte for byte), its headers and query. */
export type NotificationRequest = {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  /** Mercado Pago signs the payment id it puts in the address (`?data.id=…`). */
  query?: Record<string, string | undefined>;
};

/** A notification that cannot be trusted or does not fit its order: refused, logged, and nothing changes. */
export class NotificationRejected extends Error {}

/**
 * The gateway did not answer, answered an error, or took too long. The checkout tells the customer the method is
 * unavailable for now; reconciliation tries again at its next run; a refund stops before the order changes.
 */
export class GatewayUnavailable extends Error {}

/** How long a call to a gateway may take: under the panel's 5 s time-out, so that the checkout can answer first. */
export const GATEWAY_TIMEOUT_MS = 4000;

/** One payment provider, one file each under gateways/: Stripe, Mercado Pago, BTCPay Server and the sandbox. */
export interface PaymentGateway {
  readonly id: string;
  name(language: RequestLanguage): string;
  /** Whether the gateway, as configured, takes payments in this currency. */
  takes(currency: string): boolean;
  /**
   * Starts paying: the gateway's page to send the customer to (null when the checkout page itself shows the
   * payment, as the sandbox does). Throws GatewayUnavailable when the gateway fails or is slow.
   */
  start(order: GatewayOrder, context: StartContext): Promise<Started>;
  /**
   * Checks a notification's signature and reads it: its events (none when it is genuine but says nothing about a
   * payment we apply, e.g. an event type we do not use). Throws NotificationRejected when it cannot be trusted, and
   * GatewayUnavailable when reading it back from the gateway failed (the gateway then sends it again).
   */
  verify(request: NotificationRequest): Promise<PaymentEvent[]>;
  /** Asks the gateway what became of a payment it started: events as its notifications would carry them. */
  status(payment: StartedPayment): Promise<PaymentEvent[]>;
  /** Refunds a paid order in full; throws GatewayUnavailable when the gateway did not take the refund. */
  refund(request: RefundRequest): Promise<void>;
}
