import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { notifications } from '../../../lib/toasts';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { CURRENCIES, productOf, TRAFFIC_PLAN } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { type OrderSelection, ProductConfigurator } from './product-configurator';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
});

function renderConfigurator(product = productOf(TRAFFIC_PLAN)) {
  const renderPlaceOrder = vi.fn((selection: OrderSelection | null) => (
    <button type="button" disabled={selection === null} data-testid="place">
      {JSON.stringify(selection)}
    </button>
  ));
  const utils = renderWithProviders(<ProductConfigurator product={product} renderPlaceOrder={renderPlaceOrder} />);
  return { ...utils, renderPlaceOrder };
}

describe('ProductConfigurator', () => {
  it('defaults to the first currency and the first cycle, and shows the price and the summary', async () => {
    net.on('GET', '/mutenet/payment/currencies', envelope({ currencies: CURRENCIES }));
    renderConfigurator();
    expect(screen.getByRole('heading', { level: 2, name: 'Traffic 100 GB' })).toBeInTheDocument();

    const currency = await screen.findByRole('radiogroup', { name: 'Currency' });
    expect(within(currency).getByRole('radio', { name: 'USD · US Dollar' })).toBeChecked();
    expect(within(currency).getByRole('radio', { name: 'BRL · Real brasileiro' })).not.toBeChecked();
    const cycle = screen.getByRole('radiogroup', { name: 'Cycle' });
    expect(within(cycle).getByRole('radio', { name: /100 GB \/ 30 days/ })).toHaveAttribute('aria-checked', 'true');
    expect(within(cycle).getByRole('radio', { name: /100 GB \/ 90 days/ })).toHaveTextContent('$6.99');

    expect(screen.getByTestId('selected-price-real')).toHaveTextContent('$4.99');
    expect(screen.getByTestId('selected-price-old')).toHaveTextContent(/^Original price: \$6\.00$/);
    expect(screen.getByTestId('selected-cycle')).toHaveTextContent('Cycle: 100 GB / 30 days');
    expect(screen.getByTestId('summary-product')).toHaveTextContent('Traffic 100 GB × 100 GB / 30 days');
    expect(screen.getByTestId('summary-price')).toHaveTextContent('$4.99');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('4.99 USD');
    expect(screen.getByTestId('place')).toHaveTextContent('{"pkgId":1,"currency":"USD"}');
  });

  it('follows the chosen currency and cycle everywhere', async () => {
    net.on('GET', '/mutenet/payment/currencies', envelope({ currencies: CURRENCIES }));
    const { user } = renderConfigurator();
    await user.click(await screen.findByRole('radio', { name: 'BRL · Real brasileiro' }));
    expect(screen.getByTestId('selected-price-real')).toHaveTextContent('R$24.90');
    expect(screen.getByRole('radio', { name: /100 GB \/ 90 days/ })).toHaveTextContent('R$34.90');

    await user.click(screen.getByRole('radio', { name: /100 GB \/ 90 days/ }));
    expect(screen.getByRole('radio', { name: /100 GB \/ 90 days/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('selected-price-real')).toHaveTextContent('R$34.90');
    expect(screen.getByTestId('selected-price-old')).toHaveTextContent(/^Original price: R\$40\.00$/);
    expect(screen.getByTestId('selected-cycle')).toHaveTextContent('100 GB / 90 days');
    expect(screen.getByTestId('summary-product')).toHaveTextContent('Traffic 100 GB × 100 GB / 90 days');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('34.90 BRL');
    expect(screen.getByTestId('place')).toHaveTextContent('{"pkgId":2,"currency":"BRL"}');
  });

  it('names the cycles in the language on screen', async () => {
    await setLanguage('zh');
    net.on('GET', '/mutenet/payment/currencies', envelope({ currencies: CURRENCIES }));
    renderConfigurator();
    expect(await screen.findByRole('radio', { name: /100 GB \/ 90 天/ })).toBeInTheDocument();
    expect(screen.getByTestId('selected-cycle')).toHaveTextContent(/100 GB \/ 30 天$/);
    expect(screen.getByTestId('summary-product')).toHaveTextContent(/100 GB × 100 GB \/ 30 天$/);
  });

  it('gives no selection until the currencies have loaded', async () => {
    let answer: (response: Response) => void = () => {};
    net.on('GET', '/mutenet/payment/currencies', () => new Promise<Response>((resolve) => (answer = resolve)));
    const { renderPlaceOrder } = renderConfigurator();
    expect(screen.getByTestId('place')).toBeDisabled();
    expect(renderPlaceOrder).toHaveBeenLastCalledWith(null);
    await waitFor(() => expect(net.to('/mutenet/payment/currencies')).toHaveLength(1));
    answer(envelope({ currencies: CURRENCIES }));
    await waitFor(() => expect(screen.getByTestId('place')).toBeEnabled());
  });

  it('warns that there is no payment currency when the list is empty, and gives no selection', async () => {
    net.on('GET', '/mutenet/payment/currencies', envelope({ currencies: [] }));
    renderConfigurator();
    expect(await screen.findByTestId('no-currencies')).toHaveTextContent('No payment currency information');
    expect(screen.getByTestId('place')).toBeDisabled();
  });

  it('gives no selection for a cycle without a price in the chosen currency', async () => {
    net.on('GET', '/mutenet/payment/currencies', envelope({ currencies: [{ code: 'MXN', name: 'Peso' }] }));
    renderConfigurator();
    expect(await screen.findAllByText('This cycle cannot be paid in MXN.')).not.toHaveLength(0);
    expect(screen.getByTestId('place')).toBeDisabled();
  });

  it('always answers Verify with "Invalid discount code" and calls nothing', async () => {
    net.on('GET', '/mutenet/payment/currencies', envelope({ currencies: CURRENCIES }));
    const show = vi.spyOn(notifications, 'show');
    const { user } = renderConfigurator();
    await screen.findByRole('radiogroup', { name: 'Currency' });
    const callsBefore = net.requests.length;

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid discount code')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Discount code'), 'SAVE50{Enter}');
    await waitFor(() => expect(show).toHaveBeenCalledTimes(2));
    expect(show.mock.calls.every(([options]) => options.message === 'Invalid discount code')).toBe(true);
    expect(net.requests).toHaveLength(callsBefore);
  });

  it('speaks the language on screen', async () => {
    await setLanguage('por');
    net.on('GET', '/mutenet/payment/currencies', envelope({ currencies: CURRENCIES }));
    renderConfigurator();
    expect(await screen.findByRole('radiogroup', { name: 'Moeda' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Período' })).toBeInTheDocument();
    expect(screen.getByTestId('summary-total')).toHaveTextContent('4,99 USD');
    expect(screen.getByRole('button', { name: 'Verificar' })).toBeInTheDocument();
  });
});
