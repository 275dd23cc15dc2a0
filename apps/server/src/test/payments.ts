import type { TestApp } from './test-app.js';

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
