import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { recordSecret } from '../test-log.js';

/**
 * A local stand-in for Stripe's API (api.stripe.com/v1, as the official SDK calls it when pointed at another host)
 * and for its hosted Checkout page. It keeps Checkout Sessions, PaymentIntents, Charges, Refunds and Disputes with
 * the fields of Stripe's API reference that the panel reads, and signs webhook events with the SDK's own test header
 * helper, that is Stripe's real `Stripe-Signature` scheme (HMAC-SHA256 of `timestamp.body`).
 */

export const FAKE_STRIPE_KEY = 'sk_test_fake0000000000000000000000';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_fake000000000000000000000000';

type Json = Record<string, unknown>;
type Session = Json & { id: string; metadata: Record<string, string>; payment_intent: string | null };
type Intent = Json & { id: string; amount: number; currency: string; metadata: Record<string, string> };
type Charge = Json & { id: string; amount: number; amount_refunded: number; payment_intent: string };
type Dispute = Json & { id: string; status: string };

/** How a webhook event is delivered: lost (state changes, nothing sent), signed with another secret or at another time. */
export type Delivery = { lose?: boolean; secret?: string; timestamp?: number };
export type Delivered = { status: number; body: { code?: number; msg?: string; data?: Json } } | null;
/** `error` answers every API call 500; `hang` accepts it and never answers. The hosted page keeps working. */
export type FakeStripeMode = 'normal' | 'error' | 'hang';

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const seconds = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding (`a[b][0][c]=v`, the `qs` style the SDK sends) read back into objects and arrays. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Json = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) node[segment] = value;
      else {
        node[segment] ??= {};
        node = node[segment] as Json;
      }
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value as Json).map(([k, v]) => [k, arrays(v)] as const);
    return entries.length && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v)
      : Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

export async function startFakeStripe({
  secretKey = FAKE_STRIPE_KEY,
  webhookSecret = FAKE_STRIPE_WEBHOOK_SECRET,
} = {}) {
  recordSecret('payment gateway secret', secretKey);
  recordSecret('payment gateway secret', webhookSecret);
  const sessions = new Map<string, Session>();
  const intents = new Map<string, Intent>();
  const charges = new Map<string, Charge>();
  const disputes = new Map<string, Dispute>();
  const refunds = new Map<string, Json>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  /** Every API request, for tests to look at what the SDK sent. */
  const requests: { method: string; path: string; params: Json; headers: http.IncomingHttpHeaders }[] = [];
  const deliveries: { type: string; status: number | null }[] = [];
  /** Every event the fake made, delivered or not, newest last. */
  const events: Json[] = [];
  let mode: FakeStripeMode = 'normal';
  let webhookUrl: string | undefined;
  let url = '';

  const error = (status: number, type: string, message: string, code?: string) => ({
    status,
    body: { error: { type, message, ...(code ? { code } : {}) } },
  });

  /** A PaymentIntent with its latest charge expanded, or a session with its PaymentIntent, as `expand[]` asks. */
  function expanded(object: Json, paths: string[]): Json {
    const copy: Json = { ...object };
    for (const path of paths) {
      const [head, ...rest] = path.split('.');
      if (!head) continue;
      const value = copy[head];
      const target =
        head === 'payment_intent' && typeof value === 'string'
          ? intents.get(value)
          : head === 'latest_charge' && typeof value === 'string'
            ? charges.get(value)
            : typeof value === 'object'
              ? (value as Json)
              : undefined;
      if (target) copy[head] = expanded(target, rest.length ? [rest.join('.')] : []);
    }
    return copy;
  }

  function createSession(params: Json): { status: number; body: Json } {
    const items = params.line_items as { quantity?: string; price_data?: Json }[] | undefined;
    if (params.mode !== 'payment' || !items?.length) return error(400, 'invalid_request_error', 'mode and line_items');
    const prices = items.map((item) => item.price_data ?? {});
    const currency = String(prices[0]?.currency ?? '');
    if (!/^[a-z]{3}$/.test(currency) || prices.some((price) => price.currency !== currency)) {
      return error(400, 'invalid_request_error', 'Invalid currency', 'parameter_invalid_string');
    }
    const amounts = items.map((item, i) => Number(prices[i]?.unit_amount) * Number(item.quantity ?? 1));
    if (amounts.some((amount) => !Number.isSafeInteger(amount) || amount <= 0)) {
      return error(400, 'invalid_request_error', 'Invalid integer: unit_amount', 'parameter_invalid_integer');
    }
    const expiresAt = params.expires_at === undefined ? seconds() + 24 * 3600 : Number(params.expires_at);
    if (expiresAt < seconds() + 30 * 60 || expiresAt > seconds() + 24 * 3600) {
      return error(400, 'invalid_request_error', 'expires_at must be 30 minutes to 24 hours from now');
    }
    const sessionId = id('cs');
    const session: Session = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: amounts.reduce((a, b) => a + b, 0),
      amount_total: amounts.reduce((a, b) => a + b, 0),
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      created: seconds(),
      currency,
      customer_email: params.customer_email ?? null,
      expires_at: expiresAt,
      livemode: false,
      locale: params.locale ?? null,
      metadata: (params.metadata as Record<string, string>) ?? {},
      mode: 'payment',
      payment_intent: null,
      payment_method_types: currency === 'brl' ? ['card', 'pix'] : currency === 'mxn' ? ['card', 'oxxo'] : ['card'],
      payment_status: 'unpaid',
      status: 'open',
      success_url: params.success_url ?? null,
      url: `${url}/c/pay/${sessionId}`,
      // What the panel sent and the page does not need, kept for the tests' eyes.
      payment_intent_data: params.payment_intent_data ?? null,
      adaptive_pricing: params.adaptive_pricing ?? null,
    };
    sessions.set(sessionId, session);
    return { status: 200, body: session };
  }

  function createRefund(params: Json): { status: number; body: Json } {
    const intent = intents.get(String(params.payment_intent));
    const charge = intent?.latest_charge ? charges.get(String(intent.latest_charge)) : undefined;
    if (!intent || !charge) return error(404, 'invalid_request_error', 'No such payment_intent', 'resource_missing');
    const amount = params.amount === undefined ? charge.amount - charge.amount_refunded : Number(params.amount);
    if (charge.amount_refunded >= charge.amount) {
      return error(400, 'invalid_request_error', 'Charge has already been refunded.', 'charge_already_refunded');
    }
    const refund = refundCharge(charge, amount);
    void deliver(event('charge.refunded', charge));
    return { status: 200, body: refund };
  }

  function refundCharge(charge: Charge, amount: number): Json {
    const refund = {
      id: id('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      created: seconds(),
      currency: charge.currency,
      metadata: {},
      payment_intent: charge.payment_intent,
      status: 'succeeded',
    };
    refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return refund;
  }

  function api(method: string, path: string, params: Json): { status: number; body: Json } {
    const expand = (params.expand as string[] | undefined) ?? [];
    const [, , resource, sub, objectId] = path.split('/');
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(params);
    if (method === 'GET' && resource === 'checkout' && sub === 'sessions' && objectId) {
      const session = sessions.get(objectId);
      if (!session)
        return error(404, 'invalid_request_error', `No such checkout.session: '${objectId}'`, 'resource_missing');
      return { status: 200, body: expanded(session, expand) };
    }
    if (method === 'GET' && resource === 'payment_intents' && sub) {
      const intent = intents.get(sub);
      if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${sub}'`, 'resource_missing');
      return { status: 200, body: expanded(intent, expand) };
    }
    if (method === 'GET' && resource === 'charges' && sub) {
      const charge = charges.get(sub);
      if (!charge) return error(404, 'invalid_request_error', `No such charge: '${sub}'`, 'resource_missing');
      return { status: 200, body: charge };
    }
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  async function readBody(request: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(response: http.ServerResponse, status: number, body: Json) {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    response.end(JSON.stringify(body));
  }

  const server = http.createServer(async (request, response) => {
    const target = new URL(request.url ?? '/', 'http://fake');
    const raw = await readBody(request);
    if (target.pathname.startsWith('/c/pay/')) return hostedPage(request.method ?? 'GET', target.pathname, response);
    if (mode === 'hang') return; // Answers nothing; the socket is closed by close().
    if (mode === 'error') return send(response, 500, error(500, 'api_error', 'Something went wrong').body);
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return send(response, 401, error(401, 'invalid_request_error', 'Invalid API Key provided').body);
    }
    const params = parseStripeForm(request.method === 'GET' ? target.search.slice(1) : raw);
    requests.push({ method: request.method ?? '', path: target.pathname, params, headers: request.headers });
    const key = request.headers['idempotency-key'];
    const cacheKey = typeof key === 'string' && request.method === 'POST' ? `${target.pathname} ${key}` : undefined;
    const answer = (cacheKey && idempotent.get(cacheKey)) || api(request.method ?? 'GET', target.pathname, params);
    if (cacheKey && answer.status < 500) idempotent.set(cacheKey, answer);
    send(response, answer.status, answer.body);
  });

  const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /** Stripe's hosted page, reduced to what the customer decides: pay by card, pay later (Pix/OXXO), or leave. */
  async function hostedPage(method: string, path: string, response: http.ServerResponse) {
    const [, , , sessionId, action] = path.split('/');
    const session = sessionId ? sessions.get(sessionId) : undefined;
    if (!session) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no such session');
      return;
    }
    if (method === 'GET') {
      const amount = `${session.amount_total} ${String(session.currency).toUpperCase()} (minor units)`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><head><title>Fake Stripe Checkout</title></head><body>
<h1>Fake Stripe Checkout</h1><p id="amount">${html(amount)}</p><p id="email">${html(String(session.customer_email))}</p>
<p id="status">${html(String(session.status))}</p>
<form method="post" action="/c/pay/${session.id}/card"><button type="submit">Pay by card</button></form>
<form method="post" action="/c/pay/${session.id}/later"><button type="submit">Pay later (Pix/OXXO)</button></form>
<form method="post" action="/c/pay/${session.id}/decline"><button type="submit">Decline</button></form>
</body></html>`);
      return;
    }
    if (session.status !== 'open') {
      response.writeHead(409, { 'content-type': 'text/plain' });
      response.end(`session is ${String(session.status)}`);
      return;
    }
    if (action === 'card' || action === 'later') await pay(session.id, action);
    // A declined card leaves the session open; the customer goes back to the shop.
    response.writeHead(303, { location: String(action === 'decline' ? session.cancel_url : session.success_url) });
    response.end();
  }

  function event(type: string, object: Json): Json {
    const made = {
      id: id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: seconds(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(made);
    return made;
  }

  /** The `Stripe-Signature` header Stripe would send with this body. */
  function sign(body: string, delivery: Delivery = {}): string {
    return Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: delivery.secret ?? webhookSecret,
      ...(delivery.timestamp !== undefined ? { timestamp: delivery.timestamp } : {}),
    });
  }

  /** The signed POST Stripe makes to the registered endpoint; its answer, or null when lost or unreachable. */
  async function deliver(payload: Json | string, delivery: Delivery = {}): Promise<Delivered> {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const type = typeof payload === 'string' ? 'raw' : String(payload.type);
    if (delivery.lose || !webhookUrl) {
      deliveries.push({ type, status: null });
      return null;
    }
    const signature = sign(body, delivery);
    try {
      const answer = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      deliveries.push({ type, status: answer.status });
      const text = await answer.text();
      return { status: answer.status, body: text ? JSON.parse(text) : {} };
    } catch {
      deliveries.push({ type, status: null });
      return null;
    }
  }

  function sessionOf(sessionId: string): Session {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
    return session;
  }

  function chargeOf(sessionId: string): Charge {
    const intent = intents.get(String(sessionOf(sessionId).payment_intent));
    const charge = intent?.latest_charge ? charges.get(String(intent.latest_charge)) : undefined;
    if (!charge) throw new Error(`fake Stripe: session ${sessionId} has no charge`);
    return charge;
  }

  function succeed(intent: Intent) {
    const charge: Charge = {
      id: id('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      created: seconds(),
      currency: intent.currency,
      disputed: false,
      // Stripe copies the PaymentIntent's metadata onto the charge it makes.
      metadata: { ...intent.metadata },
      paid: true,
      payment_intent: intent.id,
      refunded: false,
      status: 'succeeded',
    };
    charges.set(charge.id, charge);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: charge.id });
  }

  /** The customer confirms on the page: by card (paid now) or by Pix/OXXO (session complete, payment to come). */
  async function pay(sessionId: string, method: 'card' | 'later', delivery?: Delivery) {
    const session = sessionOf(sessionId);
    const data = session.payment_intent_data as { metadata?: Record<string, string> } | null;
    const intent: Intent = {
      id: id('pi'),
      object: 'payment_intent',
      amount: Number(session.amount_total),
      amount_received: 0,
      created: seconds(),
      currency: String(session.currency),
      latest_charge: null,
      livemode: false,
      metadata: { ...(data?.metadata ?? {}) },
      payment_method_types: [method === 'card' ? 'card' : session.currency === 'mxn' ? 'oxxo' : 'pix'],
      status: 'requires_action',
    };
    intents.set(intent.id, intent);
    session.payment_intent = intent.id;
    session.status = 'complete';
    if (method === 'card') {
      succeed(intent);
      session.payment_status = 'paid';
    }
    return deliver(event('checkout.session.completed', session), delivery);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    deliveries,
    sessions,
    intents,
    /** Where the webhook endpoint registered in the dashboard points: `{PUBLIC_URL}/payment/notify/stripe`. */
    notifyTo(endpoint: string) {
      webhookUrl = endpoint;
    },
    setMode(next: FakeStripeMode) {
      mode = next;
    },
    /** The last session the panel created. */
    lastSession(): Session {
      const all = [...sessions.values()];
      const last = all[all.length - 1];
      if (!last) throw new Error('fake Stripe: no session yet');
      return last;
    },
    sessionFor(orderNo: string): Session {
      const found = [...sessions.values()].filter((session) => session.client_reference_id === orderNo).pop();
      if (!found) throw new Error(`fake Stripe: no session for ${orderNo}`);
      return found;
    },
    pay,
    /** The Pix or OXXO payment arrives (`checkout.session.async_payment_succeeded`). */
    async confirmLater(sessionId: string, delivery?: Delivery) {
      const session = sessionOf(sessionId);
      succeed(intents.get(String(session.payment_intent)) as Intent);
      session.payment_status = 'paid';
      return deliver(event('checkout.session.async_payment_succeeded', session), delivery);
    },
    /** The voucher or Pix code lapses unpaid (`checkout.session.async_payment_failed`). */
    async failLater(sessionId: string, delivery?: Delivery) {
      const session = sessionOf(sessionId);
      Object.assign(intents.get(String(session.payment_intent)) as Intent, { status: 'requires_payment_method' });
      return deliver(event('checkout.session.async_payment_failed', session), delivery);
    },
    async expire(sessionId: string, delivery?: Delivery) {
      const session = sessionOf(sessionId);
      session.status = 'expired';
      session.url = null;
      return deliver(event('checkout.session.expired', session), delivery);
    },
    /** A refund made in Stripe's dashboard, in full unless an amount is given. */
    async refund(sessionId: string, amount?: number, delivery?: Delivery) {
      const charge = chargeOf(sessionId);
      refundCharge(charge, amount ?? charge.amount - charge.amount_refunded);
      return deliver(event('charge.refunded', charge), delivery);
    },
    /** The cardholder's bank opens a dispute (a chargeback; `warning_needs_response` makes it an inquiry). */
    async openDispute(sessionId: string, status = 'needs_response', delivery?: Delivery) {
      const charge = chargeOf(sessionId);
      charge.disputed = true;
      const dispute: Dispute = {
        id: id('dp'),
        object: 'dispute',
        amount: charge.amount,
        charge: charge.id,
        created: seconds(),
        currency: charge.currency,
        metadata: {},
        payment_intent: charge.payment_intent,
        reason: 'fraudulent',
        status,
      };
      disputes.set(dispute.id, dispute);
      return { dispute, delivered: await deliver(event('charge.dispute.created', dispute), delivery) };
    },
    async closeDispute(disputeId: string, status: 'won' | 'lost', delivery?: Delivery) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`fake Stripe: no dispute ${disputeId}`);
      dispute.status = status;
      return deliver(event('charge.dispute.closed', dispute), delivery);
    },
    /** An event of any type and object, as Stripe would send it (for forged, replayed and foreign notifications). */
    event,
    events,
    sign,
    deliver,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
