import {
  ADMIN_PERMISSIONS,
  type AdminOrder,
  type AdminOrderDetail,
  type AdminPermission,
  type OperatorRole,
  roleMay,
} from '@mutenet/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

const NO = '202611211525000000000001';
const OTHER = '202611201000000000000002';

function order(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    no: NO,
    status: 'success',
    customer: { id: 7, email: 'buyer@example.com' },
    plan: { id: 1, name: 'Traffic 100 GB' },
    package: { id: 2, label: 'Monthly', days: 30, trafficBytes: 100 * 1024 ** 3 },
    amount: 24.9,
    currency: 'BRL',
    gateway: 'stripe',
    paymentRef: 'pi_123',
    createdAt: new Date(2026, 10, 21, 15, 25).getTime(),
    ...overrides,
  };
}

function detail(overrides: Partial<AdminOrder> = {}): AdminOrderDetail {
  const paid = new Date(2026, 10, 21, 15, 27).getTime();
  return {
    order: order(overrides),
    paidAt: paid,
    events: [
      {
        gateway: 'stripe',
        eventId: 'evt_pending',
        outcome: 'doing',
        amount: 24.9,
        currency: 'BRL',
        applied: true,
        receivedAt: paid - 60_000,
      },
      {
        gateway: 'stripe',
        eventId: 'evt_paid',
        outcome: 'success',
        amount: 24.9,
        currency: 'BRL',
        applied: true,
        receivedAt: paid,
      },
      {
        gateway: 'stripe',
        eventId: 'evt_replay',
        outcome: 'success',
        amount: null,
        currency: null,
        applied: false,
        receivedAt: paid + 1000,
      },
    ],
  };
}

const sessionOfRole = (role: OperatorRole) =>
  sessionOf({
    role,
    permissions: (Object.keys(ADMIN_PERMISSIONS) as AdminPermission[]).filter((permission) =>
      roleMay(role, permission),
    ),
  });

describe('the orders list', () => {
  it('takes its filters from the address, sends them as the API takes them, and pages with "show more"', async () => {
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOfRole('support')))
      .on('GET', '/api/orders', (request) =>
        request.url.searchParams.has('cursor')
          ? envelope({ orders: [order({ no: OTHER, amount: 0.125, currency: 'KWD', status: 'timeout' })], next: null })
          : envelope({ orders: [order()], next: '1700000000000.2' }),
      );
    const { user, location } = await renderConsole({
      path: '/orders?status=success&customer=buyer@example.com&from=2026-11-01&to=2026-11-30&currency=brl',
    });

    const table = await screen.findByRole('table', { name: 'Orders' });
    const first = network.to('/api/orders')[0]!.url.searchParams;
    expect(Object.fromEntries(first)).toEqual({
      status: 'success',
      currency: 'BRL',
      email: 'buyer@example.com',
      from: String(new Date(2026, 10, 1).getTime()),
      // The last day is included: the API's `to` is the next midnight.
      to: String(new Date(2026, 11, 1).getTime()),
    });
    // The form shows the address's filters; statuses are named as the customer panel names them.
    expect(screen.getByLabelText('Status')).toHaveValue('success');
    expect(within(screen.getByLabelText('Status')).getByRole('option', { name: 'Refunded' })).toBeInTheDocument();
    expect(screen.getByLabelText('Customer')).toHaveValue('buyer@example.com');
    expect(within(table).getByText('Payment successful (subscription opened)')).toBeInTheDocument();
    expect(within(table).getByText('R$24.90')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Orders shown: 1');

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    // Every decimal of a three-decimal currency, not rounded to cents.
    expect(await within(table).findByText('KWD 0.125')).toBeInTheDocument();
    expect(network.to('/api/orders').at(-1)!.url.searchParams.get('cursor')).toBe('1700000000000.2');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();

    // A customer id is sent as the id; applying writes the filters into the address.
    await user.clear(screen.getByLabelText('Customer'));
    await user.type(screen.getByLabelText('Customer'), '7');
    await user.selectOptions(screen.getByLabelText('Status'), '');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(location()).toBe('/orders?currency=brl&from=2026-11-01&to=2026-11-30&customer=7');
    await expect.poll(() => network.to('/api/orders').at(-1)!.url.searchParams.get('userId')).toBe('7');
    expect(network.to('/api/orders').at(-1)!.url.searchParams.has('status')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(location()).toBe('/orders');
    expect(screen.getByLabelText('Customer')).toHaveValue('');

    await user.click(await screen.findByRole('link', { name: NO }));
    expect(location()).toBe(`/orders/${NO}`);
  });

  it('says so when nothing matches, and shows a refused filter’s message', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOfRole('support')))
      .on('GET', '/api/orders', (request) =>
        request.url.searchParams.get('gateway') === 'x'
          ? envelope(null, { code: 1001, msg: 'Invalid parameters', status: 400 })
          : envelope({ orders: [], next: null }),
      );
    const { user } = await renderConsole({ path: '/orders', language: 'por' });
    expect(await screen.findByText('Nenhum pedido corresponde.')).toHaveAttribute('role', 'status');
    await user.type(screen.getByLabelText('Gateway'), 'x');
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid parameters');
  });
});

describe('an order’s page', () => {
  it('shows its fields and its events oldest first, and refunds it behind a confirmation', async () => {
    let current = detail();
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOfRole('owner')))
      .on('GET', `/api/orders/${NO}`, () => envelope(current))
      .on('POST', `/api/orders/${NO}/refund`, () => {
        current = { ...current, order: { ...current.order, status: 'refunded' } };
        return envelope(current.order);
      });
    const { user, location } = await renderConsole({ path: `/orders/${NO}` });

    expect(await screen.findByRole('heading', { level: 1, name: `Order ${NO}` })).toBeInTheDocument();
    const fields = await screen.findByRole('table', { name: 'Order details' });
    expect(within(fields).getByRole('row', { name: /Amount/ })).toHaveTextContent('R$24.90');
    expect(within(fields).getByRole('row', { name: /Package/ })).toHaveTextContent('Monthly, 30 days');
    expect(within(fields).getByRole('link', { name: 'buyer@example.com' })).toHaveAttribute('href', '/customers/7');
    const events = screen.getByRole('table', { name: 'Payment events' });
    const rows = within(events).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual([
      'evt_pending',
      'evt_paid',
      'evt_replay',
    ]);
    expect(rows.map((row) => within(row).getAllByRole('cell')[3]!.textContent)).toEqual(['In process', 'Paid', 'Paid']);
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toContain('No');

    // A paid order: refund and chargeback, not mark paid.
    const actions = screen.getByRole('group', { name: 'Actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Refund', 'Record chargeback']);
    await user.click(within(actions).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: `Refund order ${NO}` });
    expect(dialog).toHaveTextContent(`Refund order ${NO} of R$24.90? stripe returns the money`);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Already refunded at the gateway' }));
    expect(network.to(`/api/orders/${NO}/refund`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));

    const outcome = await screen.findByText(`Order ${NO} is refunded and its package has ended.`);
    expect(outcome.closest('[role="status"]')).toHaveFocus();
    expect(JSON.parse(network.to(`/api/orders/${NO}/refund`)[0]!.bodyText)).toEqual({
      confirm: true,
      alreadyRefunded: true,
    });
    await expect.poll(() => within(fields).getByRole('row', { name: /Status/ }).textContent).toContain('Refunded');
    expect(screen.queryByRole('group', { name: 'Actions' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Back to orders' }));
    expect(location()).toBe('/orders');
  });

  it('shows the gateway’s refusal in the dialog and changes nothing', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOfRole('owner')))
      .on('GET', `/api/orders/${NO}`, envelope(detail()))
      .on(
        'POST',
        `/api/orders/${NO}/refund`,
        envelope(null, { code: 2011, msg: 'The gateway did not take the refund; nothing changed' }),
      );
    const { user } = await renderConsole({ path: `/orders/${NO}` });
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: `Refund order ${NO}` });
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The gateway did not take the refund');
  });

  it('offers a manager no refund or chargeback, but marking an unpaid order paid', async () => {
    const unpaid = { ...detail({ status: 'timeout', gateway: null, paymentRef: null }), paidAt: null, events: [] };
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOfRole('manager')))
      .on('GET', `/api/orders/${NO}`, envelope(unpaid))
      .on('GET', `/api/orders/${OTHER}`, envelope(detail({ no: OTHER })))
      .on('POST', `/api/orders/${NO}/mark-paid`, envelope({ ...unpaid.order, status: 'success' }));
    const { user } = await renderConsole({ path: `/orders/${NO}`, language: 'zh' });

    const actions = await screen.findByRole('group', { name: '操作' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['标记为已支付']);
    expect(screen.getByText('暂无支付事件。')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /支付时间/ })).toHaveTextContent('未支付');
    await user.click(within(actions).getByRole('button', { name: '标记为已支付' }));
    const dialog = await screen.findByRole('dialog', { name: `将订单 ${NO} 标记为已支付` });
    expect(dialog).toHaveTextContent('R$24.90');
    await user.click(within(dialog).getByRole('button', { name: '标记为已支付' }));
    expect(await screen.findByText(`订单 ${NO} 已标记为已支付。`)).toBeInTheDocument();
    expect(JSON.parse(network.to(`/api/orders/${NO}/mark-paid`)[0]!.bodyText)).toEqual({ confirm: true });
  });

  it('shows a paid order to a manager without any action', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOfRole('manager')))
      .on('GET', `/api/orders/${NO}`, envelope(detail()));
    await renderConsole({ path: `/orders/${NO}` });
    await screen.findByRole('table', { name: 'Order details' });
    expect(screen.queryByRole('group', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
  });
});
