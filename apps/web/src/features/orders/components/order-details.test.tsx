import { ORDER_STATUSES, type Order, type OrderStatus } from '@mutenet/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '../../../lib/toasts';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { makeOrder } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { ORDER_DETAILS_TOAST_MS, ORDER_POLL_INTERVAL_MS } from '../api/get-order';
import { OrderDetails } from './order-details';

let net: FetchStub;
let current: Order[];

beforeEach(() => {
  net = stubFetch();
  current = [];
  net.on('GET', '/mutenet/user/orders', () => envelope(current));
});

function renderDetails(
  order: Order,
  {
    tutorialHref = '/document' as string | null,
    served = [order],
  }: { tutorialHref?: string | null; served?: Order[] } = {},
) {
  current = served;
  const onPay = vi.fn();
  const utils = renderWithProviders(
    <OrderDetails orderNo={order.no} tutorialHref={tutorialHref} ordersHref="/orders" onPay={onPay} />,
  );
  return { ...utils, onPay };
}

const BANNERS: Record<OrderStatus, string> = {
  success: 'The order is paid and activated',
  timeout: 'Order timed out',
  cancel: 'Order cancelled',
  close: 'Order cancelled',
  failed: 'Payment failed',
  unused: 'Status unknown',
  rejected: 'Chargeback',
  doing: 'Payment in process',
  paying: 'Paying',
  waiting: 'Paying',
  refunded: 'Refunded',
};

describe('OrderDetails', () => {
  it('shows a spinner, then the commodity and order information of the order asked for', async () => {
    const order = makeOrder({
      status: 'waiting',
      pdName: 'Traffic 500 GB',
      pkgType: '500 GB / 90 days',
      totalPrice: 15.99,
    });
    renderDetails(order);
    expect(screen.getByRole('status')).toBeInTheDocument();

    const commodity = within(await screen.findByRole('region', { name: 'Commodity information' }));
    expect(commodity.getByText('Traffic 500 GB')).toBeInTheDocument();
    expect(commodity.getByText('500 GB / 90 days')).toBeInTheDocument();
    expect(commodity.getByText('$15.99')).toBeInTheDocument();
    const info = within(screen.getByRole('region', { name: 'Order information' }));
    expect(info.getByText(order.no)).toBeInTheDocument();
    expect(info.getByText(dayjs(order.createAt).format('YYYY/MM/DD HH:mm:ss'))).toBeInTheDocument();
    expect(net.to('/mutenet/user/orders')[0]?.url.searchParams.get('no')).toBe(order.no);
  });

  it.each(ORDER_STATUSES)('shows the banner of a %s order', async (status) => {
    renderDetails(makeOrder({ status }));
    const banner = await screen.findByTestId('order-banner');
    expect(banner).toHaveAttribute('data-status', status);
    expect(within(banner).getByTestId('order-banner-text')).toHaveTextContent(BANNERS[status]);
    expect(within(banner).queryByRole('link', { name: 'View tutorial' }) !== null).toBe(status === 'success');
    expect(within(banner).queryByRole('button', { name: 'Go to the payment page' }) !== null).toBe(
      status === 'waiting' || status === 'paying',
    );
  });

  it('leads a paid order to the tutorials, except in mobile mode', async () => {
    const order = makeOrder({ status: 'success' });
    const { unmount } = renderDetails(order);
    expect(await screen.findByRole('link', { name: 'View tutorial' })).toHaveAttribute('href', '/document');
    unmount();
    renderDetails(order, { tutorialHref: null });
    await screen.findByTestId('order-banner');
    expect(screen.queryByRole('link', { name: 'View tutorial' })).not.toBeInTheDocument();
  });

  it('opens the payment page again for an order still to be paid', async () => {
    const order = makeOrder({ status: 'paying' });
    const { user, onPay } = renderDetails(order);
    await user.click(await screen.findByRole('button', { name: 'Go to the payment page' }));
    expect(onPay).toHaveBeenCalledWith(order);
  });

  it('says when there is no such order, and leads back to the orders', async () => {
    const order = makeOrder();
    renderDetails(order, { served: [] });
    expect(await screen.findByTestId('order-not-found')).toHaveTextContent(`There is no order ${order.no}`);
    expect(screen.getByRole('link', { name: 'Back to my orders' })).toHaveAttribute('href', '/orders');
  });

  it('asks again every 10 seconds and stops once the order is final', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const order = makeOrder({ status: 'waiting' });
    renderDetails(order);
    await screen.findByText('Paying');
    expect(net.to('/mutenet/user/orders')).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_INTERVAL_MS));
    await waitFor(() => expect(net.to('/mutenet/user/orders')).toHaveLength(2));

    current = [{ ...order, status: 'success' }];
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_INTERVAL_MS));
    expect(await screen.findByText('The order is paid and activated')).toBeInTheDocument();
    expect(net.to('/mutenet/user/orders')).toHaveLength(3);

    await act(() => vi.advanceTimersByTimeAsync(5 * ORDER_POLL_INTERVAL_MS));
    expect(net.to('/mutenet/user/orders')).toHaveLength(3);
  });

  it('stops asking when the screen is left', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { unmount } = renderDetails(makeOrder({ status: 'doing' }));
    await screen.findByText('Payment in process');
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(5 * ORDER_POLL_INTERVAL_MS));
    expect(net.to('/mutenet/user/orders')).toHaveLength(1);
  });

  it('keeps its error toasts for 2.5 seconds', async () => {
    const show = vi.spyOn(notifications, 'show');
    net.on('GET', '/mutenet/user/orders', envelope(null, { code: 400, msg: 'Invalid request parameters' }));
    renderWithProviders(<OrderDetails orderNo="x" tutorialHref="/document" ordersHref="/orders" onPay={vi.fn()} />);
    expect(await screen.findByText('Invalid request parameters')).toBeInTheDocument();
    expect(ORDER_DETAILS_TOAST_MS).toBe(2500);
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Invalid request parameters', autoClose: 2500 }),
    );
  });
});
