import { expect } from 'vitest';
import { signUp } from './accounts.js';
import { httpClient } from './http-client.js';
import type { TestApp } from './test-app.js';

/** A new customer's order for a package in a currency, placed through the API, with the order's row. */
export async function newCustomerOrder(
  app: TestApp,
  { email, pkgId, currency, language = 'en' }: { email: string; pkgId: number; currency: string; language?: string },
) {
  const api = httpClient(app.url, { language });
  const token = await signUp(app, api, email);
  const { body } = await api.post('/mutenet/user/order/create', { form: { pkgId: String(pkgId), currency }, token });
  expect(body.code).toBe(0);
  const order = await app.app.db
    .selectFrom('orders')
    .selectAll()
    .where('no', '=', body.data.orderNo)
    .executeTakeFirstOrThrow();
  return { api, token, no: order.no, order };
}

/** What a payment notification changes: its order's status, and how many packages and payment events the order has. */
export async function paymentState(app: TestApp, orderId: number) {
  const { db } = app.app;
  const order = await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
  const packages = await db.selectFrom('user_packages').select('id').where('order_id', '=', orderId).execute();
  const events = await db.selectFrom('payment_events').select('id').where('order_id', '=', orderId).execute();
  return { status: order.status, packages: packages.length, events: events.length };
}

/** An order's price as gateways report amounts: major units, as an exact decimal string ("4.99"). */
export function majorAmount(order: { amount_minor: number; decimals: number }): string {
  return (order.amount_minor / 10 ** order.decimals).toFixed(order.decimals);
}

/** A new customer's order paid through the sandbox gateway, as the checkout's "approve" button pays it. */
export async function newPaidOrder(app: TestApp, input: { email: string; pkgId: number; currency: string }) {
  const placed = await newCustomerOrder(app, input);
  const paid = await placed.api.post(`/payment/sandbox/${placed.no}/approve`, { token: placed.token });
  expect(paid.body).toMatchObject({ code: 0, data: { status: 'success' } });
  return placed;
}
