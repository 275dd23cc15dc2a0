import { ERROR_CODE } from '@mutenet/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, type FetchStub, stubFetch } from '../testing/fetch-stub';
import { makeOrder } from '../testing/fixtures';
import { CheckoutPage } from './checkout-page';

const ORDER = makeOrder({ status: 'waiting', pdName: 'Traffic 100 GB', pkgType: '100 GB / 30 days', totalPrice: 4.99 });
const CHECKOUT = `/payment/checkout/${ORDER.no}`;
const SANDBOX = { id: 'sandbox', name: 'Sandbox (test payments)' };

let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
});

function serveCheckout(overrides: { status?: string; payable?: boolean; methods?: unknown[] } = {}) {
  const { status = ORDER.status, payable = true, methods = [SANDBOX] } = overrides;
  net.on('GET', CHECKOUT, envelope({ order: { ...ORDER, status }, methods, payable }));
}

function renderCheckout({ language = 'en', cookie = 'token=tok-1', redirect = vi.fn() } = {}) {
  const user = userEvent.setup();
  const utils = render(
    <CheckoutPage pathname={`/shopDetails/${language}/${ORDER.no}`} cookie={cookie} redirect={redirect} />,
  );
  return { ...utils, user, redirect };
}

describe('CheckoutPage', () => {
  it('loads the order with the cookie token as Authorization and the path language', async () => {
    serveCheckout();
    renderCheckout();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the order…');
    const order = within(await screen.findByRole('region', { name: 'Your order' }));
    expect(order.getByTestId('checkout-product')).toHaveTextContent('Traffic 100 GB');
    expect(order.getByTestId('checkout-type')).toHaveTextContent('100 GB / 30 days');
    expect(order.getByTestId('checkout-amount')).toHaveTextContent('$4.99');
    expect(order.getByTestId('checkout-status')).toHaveTextContent('To be paid');
    const [request] = net.to(CHECKOUT);
    expect(request?.headers.get('authorization')).toBe('tok-1');
    expect(request?.headers.get('accept-language')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe('Checkout · Mutenet');
    expect(screen.getByRole('link', { name: 'Back to the order details' })).toHaveAttribute(
      'href',
      `/person/status/${ORDER.no}`,
    );
  });

  it('pays with the sandbox: starts the payment, approves it and shows the result', async () => {
    serveCheckout();
    net.on('POST', `${CHECKOUT}/pay`, envelope({ redirect: null }));
    net.on('POST', `/payment/sandbox/${ORDER.no}/approve`, envelope({ status: 'success' }));
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Sandbox (test payments)' }));

    const sandbox = await screen.findByRole('region', { name: 'Sandbox payment' });
    expect(screen.getByRole('heading', { name: 'Sandbox payment' })).toHaveFocus();
    const [pay] = net.to(`${CHECKOUT}/pay`);
    expect(pay?.bodyText).toBe('method=sandbox');
    expect(pay?.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(pay?.headers.get('authorization')).toBe('tok-1');
    expect(
      within(sandbox)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Approve', 'Decline', 'Leave pending']);

    await user.click(within(sandbox).getByRole('button', { name: 'Approve' }));
    const result = await screen.findByRole('region', { name: 'Payment result' });
    expect(within(result).getByTestId('checkout-result-status')).toHaveTextContent(
      'Payment successful (subscription opened)',
    );
    expect(screen.getByTestId('checkout-status')).toHaveTextContent('Payment successful (subscription opened)');
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(net.to(`/payment/sandbox/${ORDER.no}/approve`)[0]?.headers.get('authorization')).toBe('tok-1');
  });

  it.each([
    ['decline', 'Decline', 'failed', 'Payment failed'],
    ['pending', 'Leave pending', 'doing', 'Processing'],
  ])('%s: shows the resulting status', async (action, button, status, label) => {
    serveCheckout();
    net.on('POST', `${CHECKOUT}/pay`, envelope({ redirect: null }));
    net.on('POST', `/payment/sandbox/${ORDER.no}/${action}`, envelope({ status }));
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Sandbox (test payments)' }));
    await user.click(await screen.findByRole('button', { name: button }));
    expect(await screen.findByTestId('checkout-result-status')).toHaveTextContent(label);
  });

  it('goes to a real gateway’s page when it answers with one', async () => {
    serveCheckout({ methods: [{ id: 'card', name: 'Card' }] });
    net.on('POST', `${CHECKOUT}/pay`, envelope({ redirect: 'https://pay.example/session/1' }));
    const { user, redirect } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Card' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://pay.example/session/1'));
    expect(screen.getByRole('status')).toHaveTextContent('Opening the payment page…');
    expect(screen.queryByRole('region', { name: 'Sandbox payment' })).not.toBeInTheDocument();
  });

  it('says so when a gateway does not answer, and leaves every method to choose again', async () => {
    serveCheckout({ methods: [{ id: 'stripe', name: 'Card (Stripe)' }, SANDBOX] });
    const unavailable =
      'This payment method is not answering right now. Try again in a moment, or choose another method';
    net.on(
      'POST',
      `${CHECKOUT}/pay`,
      envelope(null, { code: ERROR_CODE.PAYMENT_GATEWAY_UNAVAILABLE, msg: unavailable }),
    );
    const { user, redirect } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Card (Stripe)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(unavailable);
    expect(redirect).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Card (Stripe)' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Sandbox (test payments)' })).toBeEnabled();
  });

  it('shows the status and no button for an order that can no longer be paid', async () => {
    serveCheckout({ status: 'timeout', payable: false });
    renderCheckout();
    expect(await screen.findByTestId('checkout-not-payable')).toHaveTextContent('This order can no longer be paid.');
    expect(screen.getByTestId('checkout-status')).toHaveTextContent('Cancelled automatically after timeout');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('says so when the sandbox refuses the action', async () => {
    serveCheckout();
    net.on('POST', `${CHECKOUT}/pay`, envelope({ redirect: null }));
    net.on(
      'POST',
      `/payment/sandbox/${ORDER.no}/approve`,
      envelope(null, { code: ERROR_CODE.PAYMENT_ACTION_REFUSED, msg: 'This payment action is not possible' }),
    );
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Sandbox (test payments)' }));
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This payment action is not possible');
    expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
  });

  it('asks to log in without a cookie, calling nothing', async () => {
    renderCheckout({ cookie: 'other=1' });
    expect(await screen.findByRole('heading', { name: 'Please log in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/person/login');
    expect(net.requests).toHaveLength(0);
  });

  it('asks to log in when the session has ended (401)', async () => {
    net.on('GET', CHECKOUT, envelope(null, { code: 401, msg: 'Login expired', status: 401 }));
    renderCheckout();
    expect(await screen.findByRole('heading', { name: 'Please log in' })).toBeInTheDocument();
  });

  it('explains a link without an order number', async () => {
    render(<CheckoutPage pathname="/shopDetails/en" cookie="token=tok-1" />);
    expect(await screen.findByRole('heading', { name: 'This payment link is not valid' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My orders' })).toHaveAttribute('href', '/person/orders');
    expect(net.requests).toHaveLength(0);
  });

  it('shows the server message for an unknown order, and tries again on request', async () => {
    net.on('GET', CHECKOUT, envelope(null, { code: ERROR_CODE.ORDER_NOT_FOUND, msg: 'Order not found' }));
    const { user } = renderCheckout();
    expect(await screen.findByRole('alert')).toHaveTextContent('Order not found');
    serveCheckout();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Your order' })).toBeInTheDocument();
  });

  it('reports a network failure', async () => {
    net.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderCheckout();
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error');
  });

  it.each([
    ['pt-BR', 'Pagamento', 'Seu pedido', 'Aguardando pagamento'],
    ['zh-Hans', '收银台', '您的订单', '待支付'],
  ])('speaks %s', async (language, title, orderTitle, status) => {
    serveCheckout();
    renderCheckout({ language });
    expect(await screen.findByRole('region', { name: orderTitle })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByTestId('checkout-status')).toHaveTextContent(status);
    expect(net.to(CHECKOUT)[0]?.headers.get('accept-language')).toBe(language);
    expect(document.documentElement.lang).toBe(language);
  });
});
