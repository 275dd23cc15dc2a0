import { ORDER_STATUSES, type Order } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { makeOrder } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { OrderList } from './order-list';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
});

function serveOrders(orders: Order[]) {
  net.on('GET', '/mutenet/user/orders', envelope(orders));
}

function renderList(layout: 'table' | 'cards' = 'table') {
  const onDetails = vi.fn();
  const utils = renderWithProviders(<OrderList layout={layout} onDetails={onDetails} shopHref="/shop" />);
  return { ...utils, onDetails };
}

const row = (no: string) => within(screen.getByTestId(`order-row-${no}`));

describe('OrderList as a table', () => {
  it('shows each order: number, cycle, amount with its symbol, status with its label, creation time', async () => {
    const usd = makeOrder({ status: 'waiting' });
    const brl = makeOrder({ status: 'success', currency: 'BRL', totalPrice: 24.9, pkgType: '90 days' });
    serveOrders([usd, brl]);
    renderList();
    const table = await screen.findByRole('table', { name: 'My orders' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Order number', 'Cycle', 'Amount', 'Status', 'Creation time', 'Actions']);
    const cells = row(usd.no).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent(usd.no);
    expect(cells[1]).toHaveTextContent('100 GB / 30 days');
    expect(cells[2]).toHaveTextContent('$4.99');
    expect(cells[3]).toHaveTextContent('To be paid');
    expect(cells[4]).toHaveTextContent(dayjs(usd.createAt).format('YYYY/MM/DD HH:mm:ss'));
    expect(cells[4]?.textContent).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(row(brl.no).getAllByRole('cell')[2]).toHaveTextContent('R$24.90');
    expect(row(brl.no).getByTestId('order-status')).toHaveTextContent('Payment successful (subscription opened)');
  });

  it.each(ORDER_STATUSES)('enables details and cancel as the spec says for a %s order', async (status) => {
    const order = makeOrder({ status });
    serveOrders([order]);
    renderList();
    const details = await screen.findByRole('button', { name: `Details of order ${order.no}` });
    const cancel = screen.getByRole('button', { name: `Cancel order ${order.no}` });
    expect(details).toHaveProperty('disabled', !['success', 'waiting', 'paying'].includes(status));
    expect(cancel).toHaveProperty('disabled', status !== 'waiting');
  });

  it('hands the order to the caller for its details', async () => {
    const order = makeOrder({ status: 'paying' });
    serveOrders([order]);
    const { user, onDetails } = renderList();
    await user.click(await screen.findByRole('button', { name: `Details of order ${order.no}` }));
    expect(onDetails).toHaveBeenCalledWith(order);
  });

  it('cancels a waiting order once confirmed, says so and reloads the list', async () => {
    const order = makeOrder({ status: 'waiting' });
    serveOrders([order]);
    net.on('PUT', '/mutenet/user/orders/cancel', () => {
      serveOrders([{ ...order, status: 'close' }]);
      return envelope(null, { msg: 'Cancel success' });
    });
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: `Cancel order ${order.no}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this order?' });
    expect(dialog).toHaveAccessibleDescription(/cancelling it may cause the payment to fail/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));

    expect(await screen.findByText('Cancel success')).toBeInTheDocument();
    const [request] = net.to('/mutenet/user/orders/cancel');
    expect(request?.url.searchParams.get('no')).toBe(order.no);
    await waitFor(() => expect(row(order.no).getByTestId('order-status')).toHaveTextContent('Cancelled by user'));
    expect(net.to('/mutenet/user/orders', 'GET')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('cancels nothing when the customer keeps the order', async () => {
    const order = makeOrder({ status: 'waiting' });
    serveOrders([order]);
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: `Cancel order ${order.no}` }));
    await user.click(await screen.findByRole('button', { name: 'Keep the order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(net.to('/mutenet/user/orders/cancel')).toHaveLength(0);
  });

  it('leads to the shop when there is no order', async () => {
    serveOrders([]);
    renderList();
    expect(await screen.findByTestId('orders-empty')).toHaveTextContent('You have no orders yet.');
    expect(screen.getByRole('link', { name: 'Go to the shop' })).toHaveAttribute('href', '/shop');
  });

  it('loads the list again when the language changes', async () => {
    serveOrders([makeOrder()]);
    renderList();
    await screen.findByRole('table');
    await setLanguage('por');
    await waitFor(() => expect(net.to('/mutenet/user/orders')).toHaveLength(2));
    expect(net.to('/mutenet/user/orders')[1]?.headers.get('accept-language')).toBe('pt-BR');
    expect(await screen.findByRole('columnheader', { name: 'Número do pedido' })).toBeInTheDocument();
  });
});

describe('OrderList as cards', () => {
  it('shows product, status text and amount, and opens the details of an order that has them', async () => {
    const paid = makeOrder({ status: 'success', pdName: 'Unlimited time plan', totalPrice: 5.99 });
    const lapsed = makeOrder({ status: 'timeout' });
    serveOrders([paid, lapsed]);
    const { user, onDetails } = renderList('cards');
    const card = within(await screen.findByTestId(`order-card-${paid.no}`));
    expect(card.getByText('Unlimited time plan')).toBeInTheDocument();
    expect(card.getByText('Payment successful (subscription opened)')).toBeInTheDocument();
    expect(card.getByText('$5.99')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await user.click(card.getByRole('button'));
    expect(onDetails).toHaveBeenCalledWith(paid);
    // A lapsed order has no details to open: its card is not a button.
    expect(within(screen.getByTestId(`order-card-${lapsed.no}`)).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('list')).toBeInTheDocument();
  });
});
