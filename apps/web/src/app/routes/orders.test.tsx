import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setToken } from '../../lib/storage';
import { recordCookieWrites, stubWindowOpen } from '../../testing/browser-stubs';
import { envelope, type FetchStub, stubFetch } from '../../testing/fetch-stub';
import { makeOrder } from '../../testing/fixtures';
import { renderWithProviders } from '../../testing/render';
import OrderStatusRoute from './order-status';
import OrdersRoute from './orders';

let net: FetchStub;

beforeEach(() => {
  setToken('tok-1');
  net = stubFetch();
});

/** happy-dom's own API: media queries follow the viewport. */
function setViewportWidth(width: number) {
  (
    window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }
  ).happyDOM.setViewport({ width, height: 800 });
}

afterEach(() => setViewportWidth(1024));

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/orders/:from?/:lang?" element={<OrdersRoute />} />
      <Route path="/status/:params" element={<OrderStatusRoute />} />
    </Routes>,
    { path },
  );
}

describe('orders screen', () => {
  it('opens the payment page of a waiting order in a new tab, and its details here', async () => {
    const order = makeOrder({ status: 'waiting' });
    net.on('GET', '/mutenet/user/orders', envelope([order]));
    const writes = recordCookieWrites();
    const open = stubWindowOpen();
    const { user, location } = renderAt('/orders');
    await user.click(await screen.findByRole('button', { name: `Details of order ${order.no}` }));
    await waitFor(() => expect(location()).toBe(`/status/${order.no}`));
    expect(writes).toEqual(['token=tok-1; path=/shopDetails; max-age=1800; SameSite=Strict']);
    expect(open).toHaveBeenCalledWith(`/shopDetails/en/${order.no}`, '_blank');
    expect(await screen.findByRole('heading', { level: 1, name: 'Order details' })).toBeInTheDocument();
  });

  it('opens only the details of a paid order', async () => {
    const order = makeOrder({ status: 'success' });
    net.on('GET', '/mutenet/user/orders', envelope([order]));
    const open = stubWindowOpen();
    const { user, location } = renderAt('/orders');
    await user.click(await screen.findByRole('button', { name: `Details of order ${order.no}` }));
    await waitFor(() => expect(location()).toBe(`/status/${order.no}`));
    expect(open).not.toHaveBeenCalled();
  });

  it('shows cards in mobile mode and keeps the mode on the way to the details', async () => {
    const order = makeOrder({ status: 'paying' });
    net.on('GET', '/mutenet/user/orders', envelope([order]));
    const { user, location } = renderAt('/orders/mobile/en');
    await user.click(await screen.findByTestId('order-card-open'));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await waitFor(() => expect(location()).toBe(`/status/${order.no}?from=mobile`));
  });

  it('shows cards on a phone-wide screen', async () => {
    setViewportWidth(375);
    net.on('GET', '/mutenet/user/orders', envelope([makeOrder()]));
    renderAt('/orders');
    expect(await screen.findByTestId('orders-cards')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('order details screen', () => {
  it('opens the payment page again from the details of an order to be paid', async () => {
    const order = makeOrder({ status: 'waiting' });
    net.on('GET', '/mutenet/user/orders', envelope([order]));
    const open = stubWindowOpen();
    const { user } = renderAt(`/status/${order.no}`);
    await user.click(await screen.findByRole('button', { name: 'Go to the payment page' }));
    expect(open).toHaveBeenCalledWith(`/shopDetails/en/${order.no}`, '_blank');
  });

  it('has no tutorial button in mobile mode', async () => {
    const order = makeOrder({ status: 'success' });
    net.on('GET', '/mutenet/user/orders', envelope([order]));
    renderAt(`/status/${order.no}?from=mobile`);
    await screen.findByText('The order is paid and activated');
    expect(screen.queryByRole('link', { name: 'View tutorial' })).not.toBeInTheDocument();
  });
});
