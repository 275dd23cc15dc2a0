import type { CatalogCurrency, CatalogPackage, CatalogPlan } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

const GIB = 1024 ** 3;
const MANAGER = sessionOf({ role: 'manager', permissions: ['catalog.read', 'catalog.write'] });

const CURRENCIES: CatalogCurrency[] = [
  { code: 'USD', name: 'US dollar', decimals: 2, enabled: true, sort: 0 },
  { code: 'JPY', name: 'Yen', decimals: 0, enabled: true, sort: 1 },
];

function pkg(overrides: Partial<CatalogPackage> = {}): CatalogPackage {
  return {
    id: 7,
    planId: 1,
    label: '30 days',
    days: 30,
    trafficBytes: 100 * GIB,
    sort: 0,
    prices: [{ currency: 'USD', price: 1500, real: 1290, decimals: 2 }],
    ...overrides,
  };
}

function plan(overrides: Partial<CatalogPlan> = {}): CatalogPlan {
  return {
    id: 1,
    group: 'traffic',
    names: { en: 'Basic', 'pt-BR': 'Básico', 'zh-Hans': '基础' },
    contents: { en: '<p>Fast</p>', 'pt-BR': '<p>Rápido</p>', 'zh-Hans': '<p>快速</p>' },
    visible: true,
    sort: 0,
    packages: [pkg()],
    ...overrides,
  };
}

const PRO = plan({ id: 2, names: { en: 'Pro', 'pt-BR': 'Pro', 'zh-Hans': '专业' }, packages: [] });

function catalog(plans = [plan(), PRO]) {
  return stubFetch()
    .on('GET', '/api/session', envelope(MANAGER))
    .on('GET', '/api/catalog/plans', () => envelope({ traffic: plans, durational: [] }))
    .on('GET', '/api/catalog/currencies', envelope({ currencies: CURRENCIES }));
}

const bodies = (network: ReturnType<typeof stubFetch>, path: string, method: string) =>
  network.to(path, method).map((request) => JSON.parse(request.bodyText));

// Forms typed key by key: slow on a busy machine.
describe('the catalogue screen', { timeout: 40_000 }, () => {
  it('lists plans by group with packages and exact prices; hides, reorders with the focus kept', async () => {
    const network = catalog()
      .on('PUT', '/api/catalog/plans/1/visible', envelope(plan({ visible: false })))
      .on('PUT', '/api/catalog/plan-order', envelope({ traffic: [PRO, plan()], durational: [] }));
    const { user } = await renderConsole({ path: '/catalog' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Catalogue' })).toBeInTheDocument();
    const packages = await screen.findByRole('table', { name: 'Packages of Basic' });
    expect(within(packages).getByText('USD 12.90')).toBeInTheDocument();
    expect(within(packages).getByText(/was 15\.00/)).toBeInTheDocument();
    expect(within(packages).getByText('100')).toBeInTheDocument();
    expect(screen.getByText('No plans in this group yet.')).toBeInTheDocument();

    await user.click(
      within(screen.getByRole('group', { name: 'Actions for Basic' })).getByRole('button', { name: 'Hide' }),
    );
    expect(bodies(network, '/api/catalog/plans/1/visible', 'PUT')).toEqual([{ visible: false }]);

    expect(screen.getByRole('button', { name: 'Move Basic up' })).toBeDisabled();
    screen.getByRole('button', { name: 'Move Basic down' }).focus();
    await user.keyboard('{Enter}');
    expect(bodies(network, '/api/catalog/plan-order', 'PUT')).toEqual([{ group: 'traffic', planIds: [2, 1] }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Basic up' })).toHaveFocus());
  });

  it('adds a plan in three languages with a sanitised preview', async () => {
    const network = catalog().on('POST', '/api/catalog/plans', envelope(plan({ id: 3 })));
    const { user } = await renderConsole({ path: '/catalog' });
    await user.click(await screen.findByRole('button', { name: 'New plan' }));
    const form = await screen.findByRole('form', { name: 'New plan' });
    await user.selectOptions(within(form).getByLabelText('Group'), 'durational');
    await user.type(within(form).getByLabelText(/^Name \(English\)/), 'Monthly');
    await user.click(within(form).getByLabelText(/^Content \(HTML\) \(English\)/));
    await user.paste('<b>Unlimited</b><img src=x onerror=alert(1)><script>alert(2)</script>');
    const preview = within(form).getByTestId('preview-en');
    expect(preview.querySelector('b')).toHaveTextContent('Unlimited');
    expect(preview.innerHTML).not.toMatch(/onerror|script/);
    await user.click(within(form).getByRole('tab', { name: 'Português (Brasil)' }));
    await user.type(within(form).getByLabelText(/^Name \(Português/), 'Mensal');
    await user.click(within(form).getByRole('tab', { name: '简体中文' }));
    await user.type(within(form).getByLabelText(/^Name \(简体中文/), '月付');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New plan' })).not.toBeInTheDocument());
    expect(bodies(network, '/api/catalog/plans', 'POST')).toEqual([
      {
        group: 'durational',
        names: { en: 'Monthly', 'pt-BR': 'Mensal', 'zh-Hans': '月付' },
        contents: {
          en: '<b>Unlimited</b><img src=x onerror=alert(1)><script>alert(2)</script>',
          'pt-BR': '',
          'zh-Hans': '',
        },
      },
    ]);
  });

  it('adds a package with traffic in bytes and prices in minor units, exactly; refuses bad amounts', async () => {
    const network = catalog().on('POST', '/api/catalog/plans/2/packages', envelope(pkg({ id: 9, planId: 2 })));
    const { user } = await renderConsole({ path: '/catalog' });
    const actions = await screen.findByRole('group', { name: 'Actions for Pro' });
    await user.click(within(actions).getByRole('button', { name: 'Add package' }));
    const form = await screen.findByRole('form', { name: 'Add package' });
    await user.type(within(form).getByLabelText(/^Label/), '0.1 GB');
    await user.type(within(form).getByLabelText(/^Traffic \(GB\)/), '0.1');
    await user.type(within(form).getByLabelText('Price in USD'), '12.905');
    await user.type(within(form).getByLabelText('Price in JPY'), '1500');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('Not an amount in USD (at most 2 decimals).')).toBeInTheDocument();
    expect(network.to('/api/catalog/plans/2/packages', 'POST')).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Price in USD'));
    await user.type(within(form).getByLabelText('Price in USD'), '0.29');
    await user.type(within(form).getByLabelText('Old price in USD (optional)'), '1.10');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.to('/api/catalog/plans/2/packages', 'POST')).toHaveLength(1));
    expect(bodies(network, '/api/catalog/plans/2/packages', 'POST')[0]).toEqual({
      label: '0.1 GB',
      days: 30,
      trafficBytes: 107374182,
      prices: [
        { currency: 'USD', price: 110, real: 29 },
        { currency: 'JPY', price: 1500, real: 1500 },
      ],
    });
  });

  it('removes a package only after confirming, and shows the server’s refusal in the form', async () => {
    const network = catalog()
      .on('DELETE', '/api/catalog/packages/7', envelope({ id: 7 }))
      .on('PUT', '/api/catalog/packages/7', envelope(null, { code: 3010, msg: 'The old price is below the real one' }));
    const { user } = await renderConsole({ path: '/catalog' });
    const actions = await screen.findByRole('group', { name: 'Actions for 30 days' });

    await user.click(within(actions).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit package' });
    expect(within(form).getByLabelText(/^Traffic \(GB\)/)).toHaveValue('100');
    expect(within(form).getByLabelText('Price in USD')).toHaveValue('12.90');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('The old price is below the real one');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    await user.click(within(actions).getByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove package' });
    expect(network.to('/api/catalog/packages/7', 'DELETE')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(network.to('/api/catalog/packages/7', 'DELETE')).toHaveLength(1));
  });

  it('shows no change buttons to a role that may only read; one that may write adds a currency and stops offering one', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ role: 'support', permissions: ['catalog.read'] })))
      .on('GET', '/api/catalog/plans', envelope({ traffic: [plan()], durational: [] }))
      .on('GET', '/api/catalog/currencies', envelope({ currencies: CURRENCIES }));
    const first = await renderConsole({ path: '/catalog' });
    expect(await screen.findByRole('table', { name: 'Packages of Basic' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New plan' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hide' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New currency' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Offer JPY at checkout' })).not.toBeInTheDocument();
    first.unmount();

    const network = catalog().on('POST', '/api/catalog/currencies', envelope({ ...CURRENCIES[0], code: 'BRL' }));
    const { user } = await renderConsole({ path: '/catalog' });
    const form = await screen.findByRole('form', { name: 'New currency' });
    await user.type(within(form).getByLabelText(/^Code/), 'brl');
    await user.type(within(form).getByLabelText(/^Name/), 'Real');
    await user.click(within(form).getByRole('button', { name: 'Add currency' }));
    await waitFor(() =>
      expect(bodies(network, '/api/catalog/currencies', 'POST')).toEqual([{ code: 'brl', name: 'Real', decimals: 2 }]),
    );

    network.on('PUT', '/api/catalog/currencies/JPY/enabled', envelope({ ...CURRENCIES[1], enabled: false }));
    await user.click(screen.getByRole('switch', { name: 'Offer JPY at checkout' }));
    await waitFor(() =>
      expect(bodies(network, '/api/catalog/currencies/JPY/enabled', 'PUT')).toEqual([{ enabled: false }]),
    );
  });
});
