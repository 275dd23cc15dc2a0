import { ERROR_CODE } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeProduct } from '../../features/catalog/utils/product-param';
import { setLanguage } from '../../i18n/i18n';
import { setToken } from '../../lib/storage';
import { recordCookieWrites, stubWindowOpen } from '../../testing/browser-stubs';
import { envelope, type FetchStub, stubFetch } from '../../testing/fetch-stub';
import { CURRENCIES, TRAFFIC_PLAN } from '../../testing/fixtures';
import { renderWithProviders } from '../../testing/render';
import ShopConfigureRoute from './shop-configure';

const NEW_ORDER = '202611211525000000000042';
const OPEN_ORDER = '202611211525000000000007';
const COOKIE = 'token=tok-1; path=/shopDetails; max-age=1800; SameSite=Strict';

let net: FetchStub;

beforeEach(() => {
  setToken('tok-1');
  net = stubFetch().on('GET', '/mutenet/payment/currencies', envelope({ currencies: CURRENCIES }));
});

function renderConfigure(obj = encodeProduct(TRAFFIC_PLAN), search = '') {
  return renderWithProviders(
    <Routes>
      <Route path="/shopConfigure/:obj" element={<ShopConfigureRoute />} />
      <Route path="*" element={null} />
    </Routes>,
    { path: `/shopConfigure/${obj}${search}` },
  );
}

async function placeOrder(user: ReturnType<typeof renderConfigure>['user']) {
  const button = screen.getByRole('button', { name: 'Place an order' });
  await waitFor(() => expect(button).toBeEnabled());
  await user.click(button);
}

describe('configure screen', () => {
  it('keeps Place an order disabled until the currencies have loaded', async () => {
    let answer: (response: Response) => void = () => {};
    net.on('GET', '/mutenet/payment/currencies', () => new Promise<Response>((resolve) => (answer = resolve)));
    renderConfigure();
    expect(screen.getByRole('button', { name: 'Place an order' })).toBeDisabled();
    await waitFor(() => expect(net.to('/mutenet/payment/currencies')).toHaveLength(1));
    answer(envelope({ currencies: CURRENCIES }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Place an order' })).toBeEnabled());
  });

  it.each([
    ['not base64', '%25%25%25'],
    ['tampered', `${encodeProduct(TRAFFIC_PLAN).slice(0, -12)}xyz`],
    ['not a product', 'eyJwZE5hbWUiOiJQcm8ifQ=='],
  ])('explains a %s link and leads back to the shop', async (_name, obj) => {
    renderConfigure(obj);
    expect(await screen.findByRole('alert')).toHaveTextContent('This plan link is not valid');
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/shop');
    expect(screen.queryByRole('button', { name: 'Place an order' })).not.toBeInTheDocument();
  });

  it('code 0: hands the session to the checkout, opens it in a new tab and shows the order details', async () => {
    await setLanguage('por');
    const writes = recordCookieWrites();
    const open = stubWindowOpen();
    net.on('POST', '/mutenet/user/order/create', envelope({ orderNo: NEW_ORDER }));
    const { user, location } = renderConfigure();
    await user.click(await screen.findByRole('radio', { name: 'BRL · Real brasileiro' }));
    await user.click(screen.getByRole('radio', { name: /100 GB \/ 90 dias/ }));
    await user.click(screen.getByRole('button', { name: 'Fazer pedido' }));

    await waitFor(() => expect(location()).toBe(`/status/${NEW_ORDER}`));
    const [request] = net.to('/mutenet/user/order/create');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({ pkgId: '2', currency: 'BRL' });
    expect(request?.headers.get('authorization')).toBe('tok-1');
    expect(writes).toEqual([COOKIE]);
    expect(open).toHaveBeenCalledWith(`/shopDetails/pt-BR/${NEW_ORDER}`, '_blank');
  });

  it('keeps mobile mode on the way to the details', async () => {
    stubWindowOpen();
    net.on('POST', '/mutenet/user/order/create', envelope({ orderNo: NEW_ORDER }));
    const { user, location } = renderConfigure(encodeProduct(TRAFFIC_PLAN), '?from=mobile');
    await placeOrder(user);
    await waitFor(() => expect(location()).toBe(`/status/${NEW_ORDER}?from=mobile`));
  });

  it('code 3: asks, and on confirmation goes to the unfinished order without a new tab', async () => {
    const open = stubWindowOpen();
    net.on(
      'POST',
      '/mutenet/user/order/create',
      envelope([{ no: OPEN_ORDER }], { code: ERROR_CODE.ORDER_UNFINISHED, msg: 'You have an unfinished order' }),
    );
    const { user, location } = renderConfigure();
    await placeOrder(user);
    const dialog = await screen.findByRole('dialog', { name: 'Unfinished order' });
    expect(screen.queryByText('You have an unfinished order')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Go to that order' }));
    await waitFor(() => expect(location()).toBe(`/status/${OPEN_ORDER}`));
    expect(open).not.toHaveBeenCalled();
  });

  it('code 3: stays put when the customer steps back', async () => {
    net.on('POST', '/mutenet/user/order/create', envelope([{ no: OPEN_ORDER }], { code: ERROR_CODE.ORDER_UNFINISHED }));
    const { user, location } = renderConfigure();
    const here = location();
    await placeOrder(user);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(location()).toBe(here);
  });

  it('code 3 without the order: shows the server message', async () => {
    net.on(
      'POST',
      '/mutenet/user/order/create',
      envelope([], { code: ERROR_CODE.ORDER_UNFINISHED, msg: 'You have an unfinished order for this plan' }),
    );
    const { user } = renderConfigure();
    await placeOrder(user);
    expect(await screen.findByText('You have an unfinished order for this plan')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('code 4: confirms the queued package, places the order again with force=1, then opens it', async () => {
    const writes = recordCookieWrites();
    const open = stubWindowOpen();
    net.on('POST', '/mutenet/user/order/create', (request) =>
      request.form.get('force') === '1'
        ? envelope({ orderNo: NEW_ORDER })
        : envelope(null, { code: ERROR_CODE.PACKAGE_ACTIVE, msg: 'You already have an active package' }),
    );
    const { user, location } = renderConfigure();
    await placeOrder(user);
    const dialog = await screen.findByRole('dialog', { name: 'You already have an active package' });
    expect(dialog).toHaveAccessibleDescription(/take effect after your current package expires/);
    expect(open).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Place the order' }));

    await waitFor(() => expect(location()).toBe(`/status/${NEW_ORDER}`));
    const [first, second] = net.to('/mutenet/user/order/create');
    expect(first?.form.get('force')).toBeNull();
    expect(Object.fromEntries(second?.form ?? [])).toEqual({ pkgId: '1', currency: 'USD', force: '1' });
    expect(writes).toEqual([COOKIE]);
    expect(open).toHaveBeenCalledWith(`/shopDetails/en/${NEW_ORDER}`, '_blank');
  });

  it('success without an order number: says there is no order information', async () => {
    const open = stubWindowOpen();
    net.on('POST', '/mutenet/user/order/create', envelope(null));
    const { user, location } = renderConfigure();
    const here = location();
    await placeOrder(user);
    expect(await screen.findByText('No order information')).toBeInTheDocument();
    expect(location()).toBe(here);
    expect(open).not.toHaveBeenCalled();
  });

  it('shows the server message for any other refusal', async () => {
    net.on(
      'POST',
      '/mutenet/user/order/create',
      envelope(null, { code: ERROR_CODE.CURRENCY_NOT_AVAILABLE, msg: 'This plan cannot be paid in that currency' }),
    );
    const { user } = renderConfigure();
    await placeOrder(user);
    expect(await screen.findByText('This plan cannot be paid in that currency')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Place an order' })).toBeEnabled();
  });
});
