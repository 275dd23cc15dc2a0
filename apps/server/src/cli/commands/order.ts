import { ORDER_NO_PATTERN, ORDER_STATUSES } from '@mutenet/contract';
import { AppError } from '../../lib/app-error.js';
import type { Localized } from '../../lib/localized.js';
import { toMajor } from '../../lib/money.js';
import type { OrdersService } from '../../modules/orders/orders.service.js';
import { type PaymentsService, RefundFailed } from '../../modules/payments/payments.service.js';
import {
  CommandError,
  command,
  flag,
  given,
  integer,
  type Noun,
  oneOf,
  type Parsed,
  text,
  UsageError,
} from '../command.js';
import type { AdminServices } from '../context.js';
import { formatMajor, isoTime, keyValues, table, toGb } from '../output.js';

type OrderRow = NonNullable<Awaited<ReturnType<OrdersService['adminFind']>>>;

/** `unused` is only the panel's fallback for an unknown status: no order is stored with it. */
const STATUSES = ORDER_STATUSES.filter((status) => status !== 'unused');
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 10_000;

function orderJson(orders: OrdersService, row: OrderRow, email: string | undefined) {
  return {
    no: row.no,
    status: orders.statusOf(row),
    userId: row.user_id,
    email: email ?? null,
    planId: row.plan_id,
    planNames: JSON.parse(row.plan_names) as Localized,
    packageId: row.package_id,
    packageLabel: row.package_label,
    days: row.days,
    trafficBytes: row.traffic_bytes,
    currency: row.currency,
    amount: toMajor(row.amount_minor, row.decimals),
    gateway: row.gateway,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
    dueAt: isoTime(row.due_at),
  };
}

const amountText = (row: OrderRow) => `${row.currency} ${formatMajor(row.amount_minor, row.decimals)}`;
const planName = (row: OrderRow) => (JSON.parse(row.plan_names) as Partial<Localized>).en ?? '';

function orderText(orders: OrdersService, row: OrderRow, email: string | undefined): string {
  return keyValues([
    ['no', row.no],
    ['status', orders.statusOf(row)],
    ['user', `${email ?? '(deleted)'} (id ${row.user_id})`],
    ['plan', `${planName(row)} (id ${row.plan_id})`],
    ['package', `${row.package_label} (id ${row.package_id})`],
    ['days', row.days],
    ['traffic', `${toGb(row.traffic_bytes)} GB`],
    ['amount', amountText(row)],
    ['gateway', row.gateway ?? '-'],
    ['created', isoTime(row.created_at)],
    ['updated', isoTime(row.updated_at)],
    ['due', isoTime(row.due_at)],
  ]);
}

async function shown({ orders, users }: AdminServices, row: OrderRow, headline?: string) {
  const email = (await users.emailsOf([row.user_id])).get(row.user_id);
  const body = orderText(orders, row, email);
  return { json: orderJson(orders, row, email), text: headline ? `${headline}\n${body}` : body };
}

function orderNo(parsed: Parsed): string {
  const no = parsed.positionals[0] ?? '';
  if (!ORDER_NO_PATTERN.test(no)) throw new UsageError(`bad order number "${no}": must be 24 digits`);
  return no;
}

/**
 * Runs an operator's change through the payments service (as the console does) and shows the order it moved; a
 * refusal names the order's status.
 */
async function changed(
  services: AdminServices,
  no: string,
  apply: () => Promise<OrderRow>,
  refusal: string,
  done: string,
) {
  try {
    return await shown(services, await apply(), `order ${no} ${done}`);
  } catch (error) {
    if (error instanceof RefundFailed) throw new CommandError(error.message);
    if (!(error instanceof AppError)) throw error;
    const row = await services.orders.adminFind(no);
    if (!row) throw new CommandError(`order ${no} not found`);
    throw new CommandError(`order ${no} is ${services.orders.statusOf(row)}: ${refusal}`);
  }
}

/** mark-paid and chargeback: the lifecycle decides, and a refusal names the status. */
const change = (
  verb: string,
  summary: string,
  apply: (payments: PaymentsService, no: string) => Promise<OrderRow>,
  refusal: string,
  done: string,
) =>
  command({
    summary,
    args: ['NO'],
    example: `admin order ${verb} 202608011200001234567890`,
    parse: orderNo,
    run: (no, services) => changed(services, no, () => apply(services.payments, no), refusal, done),
  });

export const orderCommands: Noun = {
  summary: 'customers’ orders, and what the operator may do to them',
  verbs: {
    list: command({
      summary: 'orders, newest first',
      flags: {
        user: { value: 'EMAIL', help: 'only this customer’s' },
        status: { value: 'STATUS', help: `only orders in this status: ${STATUSES.join(', ')}` },
        limit: { value: 'N', help: `at most this many (default ${DEFAULT_LIMIT}, up to ${MAX_LIMIT})` },
      },
      example: 'admin order list --user alice@example.com --status success --limit 20',
      parse(parsed) {
        const user = flag(parsed, 'user');
        const status = flag(parsed, 'status');
        const limit = flag(parsed, 'limit');
        if (user !== undefined && !/^[^\s@]+@[^\s@]+$/.test(text(user, '--user', 254))) {
          throw new UsageError(`bad --user "${user}": must be an email address`);
        }
        return {
          user,
          status: status === undefined ? undefined : oneOf(status, '--status', STATUSES),
          limit: limit === undefined ? DEFAULT_LIMIT : integer(limit, '--limit', 1, MAX_LIMIT),
        };
      },
      async run({ user, status, limit }, { orders, users }) {
        const userId = user === undefined ? undefined : await users.findUserIdByEmail(user);
        if (user !== undefined && userId === undefined) throw new CommandError(`no user with the email ${user}`);
        const { rows } = await orders.adminPage({
          ...(userId !== undefined ? { userId } : {}),
          ...(status ? { status } : {}),
          limit,
        });
        const emails = await users.emailsOf(rows.map((row) => row.user_id));
        return {
          json: rows.map((row) => orderJson(orders, row, emails.get(row.user_id))),
          text: table(
            ['NO', 'STATUS', 'USER', 'PLAN', 'PACKAGE', 'AMOUNT', 'GATEWAY', 'CREATED'],
            rows.map((row) => [
              row.no,
              orders.statusOf(row),
              emails.get(row.user_id) ?? `(id ${row.user_id})`,
              planName(row),
              row.package_label,
              amountText(row),
              row.gateway ?? '-',
              isoTime(row.created_at),
            ]),
            'no orders',
          ),
        };
      },
    }),
    show: command({
      summary: 'one order and its payment events, oldest first',
      args: ['NO'],
      example: 'admin order show 202608011200001234567890',
      parse: orderNo,
      async run(no, services) {
        const row = await services.orders.adminFind(no);
        if (!row) throw new CommandError(`order ${no} not found`);
        const { paidAt, events } = await services.payments.orderDetail(no, 'en');
        const order = await shown(services, row);
        return {
          json: {
            ...order.json,
            paidAt: paidAt === null ? null : isoTime(paidAt),
            events: events.map((event) => ({ ...event, receivedAt: isoTime(event.receivedAt) })),
          },
          text: `${order.text}\n\n${table(
            ['RECEIVED', 'GATEWAY', 'EVENT', 'OUTCOME', 'AMOUNT', 'APPLIED'],
            events.map((event) => [
              isoTime(event.receivedAt),
              event.gateway,
              event.eventId,
              event.outcome,
              event.amount === null ? '-' : `${event.currency ?? ''} ${event.amount}`.trim(),
              event.applied ? 'yes' : 'no',
            ]),
            'no payment events',
          )}`,
        };
      },
    }),
    'mark-paid': change(
      'mark-paid',
      'records a payment the operator saw arrive: the order succeeds and its package is activated, once',
      (payments, no) => payments.markPaid(no),
      'only an unpaid order (waiting, paying, doing, failed, cancel, timeout or close) can be marked paid',
      'marked paid: its package is active or queued',
    ),
    refund: command({
      summary: 'refunds a paid order through the gateway that took the money, then its package ends',
      args: ['NO'],
      flags: {
        'already-refunded': {
          value: '',
          switch: true,
          help: 'the money went back outside the panel (e.g. in the gateway’s dashboard): only end the package',
        },
      },
      example: 'admin order refund 202608011200001234567890',
      parse: (parsed) => ({ no: orderNo(parsed), atGateway: !given(parsed, 'already-refunded') }),
      run: ({ no, atGateway }, services) =>
        changed(
          services,
          no,
          () => services.payments.refund(no, { atGateway }),
          'only a paid (success) order can be refunded',
          atGateway ? 'refunded: its package has ended' : 'recorded as refunded: its package has ended',
        ),
    }),
    chargeback: change(
      'chargeback',
      'records a chargeback of a paid order: it turns rejected and its package ends now',
      (payments, no) => payments.chargeback(no),
      'only a paid (success) order can be charged back',
      'charged back: its package has ended',
    ),
  },
};
