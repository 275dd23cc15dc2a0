import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { BIG_TRAFFIC_PLAN, CYCLE_PLAN, PLANS, productOf, TRAFFIC_PLAN } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { decodeProduct } from '../utils/product-param';
import { PlanList } from './plan-list';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
});

function renderShop() {
  return renderWithProviders(<PlanList orderHref={(plan) => `/shopConfigure/${plan.pdId}`} />, { path: '/shop' });
}

const cards = () => screen.findAllByTestId('plan-card');

describe('PlanList', () => {
  it('shows a spinner, then the traffic plans by default with a switch to the plans by cycle', async () => {
    net.on('GET', '/mutenet/packages', envelope(PLANS));
    const { user } = renderShop();
    expect(screen.getByRole('status')).toBeInTheDocument();

    expect(await cards()).toHaveLength(2);
    expect(screen.getByRole('heading', { level: 2, name: 'Choose a plan' })).toBeInTheDocument();
    const group = screen.getByRole('radiogroup', { name: 'Plan type' });
    const traffic = within(group).getByRole('radio', { name: 'By traffic' });
    expect(traffic).toBeChecked();
    expect(screen.getByRole('heading', { level: 3, name: 'Traffic 100 GB' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Traffic 500 GB' })).toBeInTheDocument();

    await user.click(within(group).getByText('By cycle'));
    expect(within(group).getByRole('radio', { name: 'By cycle' })).toBeChecked();
    expect(await cards()).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 3, name: 'Unlimited time plan' })).toBeInTheDocument();
  });

  it('offers only the groups that have plans, and opens on the cycle plans when there is no traffic plan', async () => {
    net.on('GET', '/mutenet/packages', envelope({ traffic: [], durational: [CYCLE_PLAN] }));
    renderShop();
    expect(await cards()).toHaveLength(1);
    const group = screen.getByRole('radiogroup', { name: 'Plan type' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['durational']);
    expect(within(group).getByRole('radio', { name: 'By cycle' })).toBeChecked();
  });

  it('hides the cycle option when that group is empty', async () => {
    net.on('GET', '/mutenet/packages', envelope({ traffic: [TRAFFIC_PLAN], durational: [] }));
    renderShop();
    await cards();
    expect(screen.queryByRole('radio', { name: 'By cycle' })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'By traffic' })).toBeChecked();
  });

  it('says so when there is no plan at all', async () => {
    net.on('GET', '/mutenet/packages', envelope({ traffic: [], durational: [] }));
    renderShop();
    expect(await screen.findByTestId('plans-empty')).toHaveTextContent('No plans are available');
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
  });

  it('shows the first package in dollars, the old price struck through, and its type', async () => {
    net.on('GET', '/mutenet/packages', envelope(PLANS));
    renderShop();
    const [first] = await cards();
    const card = within(first as HTMLElement);
    expect(card.getByTestId('plan-price-real')).toHaveTextContent('$4.99');
    const old = card.getByTestId('plan-price-old');
    expect(old.tagName).toBe('S');
    // With the decimals of the price beside it.
    expect(old).toHaveTextContent(/^Original price: \$6\.00$/);
    expect(card.getByTestId('plan-package')).toHaveTextContent('100 GB / 30 days');
  });

  it('shows reais with R$ and the package type in Portuguese, and falls back to the only currency a package has', async () => {
    await setLanguage('por');
    net.on('GET', '/mutenet/packages', envelope(PLANS));
    renderShop();
    const [first, second] = await cards();
    expect(within(first as HTMLElement).getByTestId('plan-price-real')).toHaveTextContent('R$24,90');
    expect(within(first as HTMLElement).getByTestId('plan-price-old')).toHaveTextContent(/^Preço original: R\$30,00$/);
    expect(within(first as HTMLElement).getByTestId('plan-package')).toHaveTextContent(/^Pacote: 100 GB \/ 30 dias$/);
    // The 500 GB plan has no BRL price: its dollars are shown.
    expect(within(second as HTMLElement).getByTestId('plan-price-real')).toHaveTextContent('$15,99');
  });

  it('never lets a script or an event handler of a description reach the page', async () => {
    const hostile = {
      ...TRAFFIC_PLAN,
      content:
        '<p>Fast</p><script>window.pwned = true</script><img src="x" onerror="window.pwned = true"><a href="javascript:alert(1)">link</a><style>body{display:none}</style>',
    };
    net.on('GET', '/mutenet/packages', envelope({ traffic: [hostile], durational: [] }));
    const { container } = renderShop();
    const content = await screen.findByTestId('plan-content');
    expect(content).toHaveTextContent('Fast');
    expect(container.querySelector('script')).toBeNull();
    expect(content.querySelector('style')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
    expect(content.querySelector('img')).toHaveAttribute('src', 'x');
  });

  it('links each order button to the configure screen, named with its plan', async () => {
    net.on('GET', '/mutenet/packages', envelope(PLANS));
    renderShop();
    await cards();
    const order = screen.getByRole('link', { name: 'Order now: Traffic 500 GB' });
    expect(order).toHaveAttribute('href', `/shopConfigure/${BIG_TRAFFIC_PLAN.pdId}`);
  });

  it('loads the plans again in the new language', async () => {
    net.on('GET', '/mutenet/packages', envelope(PLANS));
    renderShop();
    await cards();
    await setLanguage('zh');
    await waitFor(() => expect(net.to('/mutenet/packages')).toHaveLength(2));
    expect(net.to('/mutenet/packages')[1]?.headers.get('accept-language')).toBe('zh-Hans');
    expect(await screen.findByRole('heading', { level: 2, name: '选择套餐' })).toBeInTheDocument();
  });
});

describe('the configure link a card makes', () => {
  it('holds the product of the plan', async () => {
    const { encodeProduct } = await import('../utils/product-param');
    expect(decodeProduct(encodeProduct(CYCLE_PLAN))).toEqual(productOf(CYCLE_PLAN));
  });
});
