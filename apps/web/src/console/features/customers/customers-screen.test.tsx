import type { AdminPermission, CustomerAccount, CustomerDetails } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

const EVERY_CUSTOMER_PERMISSION: AdminPermission[] = [
  'customers.read',
  'customers.ban',
  'customers.resetSubscription',
  'customers.addDays',
  'customers.addTraffic',
  'customers.revokeSession',
];
const SUPPORT_PERMISSIONS: AdminPermission[] = [
  'customers.read',
  'customers.ban',
  'customers.resetSubscription',
  'customers.revokeSession',
];

const GIB = 1024 ** 3;

function account(overrides: Partial<CustomerAccount> = {}): CustomerAccount {
  return { id: 7, email: 'ana@example.com', name: 'Ana', banned: false, createdAt: Date.UTC(2026, 0, 2), ...overrides };
}

function details(overrides: Partial<CustomerAccount> = {}): CustomerDetails {
  return {
    account: account(overrides),
    packages: [
      {
        id: 1,
        orderId: 3,
        planNames: { en: 'Monthly', 'pt-BR': 'Mensal', 'zh-Hans': '月付' },
        group: 'durational',
        state: 'running',
        startsAt: Date.UTC(2026, 10, 1),
        endsAt: Date.UTC(2026, 11, 1),
        trafficUsed: 25 * GIB,
        trafficTotal: 100 * GIB,
      },
      {
        id: 2,
        orderId: 4,
        planNames: { en: 'Top-up', 'pt-BR': 'Recarga', 'zh-Hans': '加油包' },
        group: 'traffic',
        state: 'queued',
        startsAt: Date.UTC(2026, 11, 1),
        endsAt: Date.UTC(2027, 0, 1),
        trafficUsed: 0,
        trafficTotal: 1.5 * GIB,
      },
    ],
    orders: [
      {
        no: 'A100',
        status: 'success',
        amount: 24.9,
        currency: 'BRL',
        gateway: 'pix',
        createdAt: Date.UTC(2026, 10, 1),
      },
    ],
    sessions: [{ id: 11, createdAt: Date.UTC(2026, 10, 20, 9), expiresAt: Date.UTC(2026, 11, 20, 9) }],
    subscriptionUrl: 'https://panel.example.com/s/abc123',
  };
}

describe('the customers screen', () => {
  it('searches as the operator types, keeps the search in the address and pages with "show more"', async () => {
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ permissions: EVERY_CUSTOMER_PERMISSION })))
      .on('GET', '/api/customers', (request) => {
        const cursor = request.url.searchParams.get('cursor');
        return cursor
          ? envelope({ customers: [account({ id: 3, email: 'anabel@example.com', banned: true })], next: null })
          : envelope({ customers: [account()], next: 7 });
      });
    const { user, location } = await renderConsole({ path: '/customers' });

    const search = await screen.findByRole('searchbox', { name: 'Search' });
    await user.type(search, 'ana@');
    await waitFor(() => expect(location()).toBe('/customers?search=ana%40'));
    const searched = network.to('/api/customers', 'GET').at(-1)!;
    expect(searched.url.searchParams.get('search')).toBe('ana@');
    // One request for the settled text, none per keystroke.
    expect(network.to('/api/customers', 'GET').filter((r) => r.url.searchParams.has('search'))).toHaveLength(1);

    const table = await screen.findByRole('table', { name: 'Customers' });
    expect(within(table).getByRole('link', { name: 'ana@example.com' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await within(table).findByText('anabel@example.com')).toBeInTheDocument();
    expect(within(table).getByText('Banned')).toBeInTheDocument();
    const more = network.to('/api/customers', 'GET').at(-1)!;
    expect(Object.fromEntries(more.url.searchParams)).toEqual({ search: 'ana@', cursor: '7' });
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    expect(screen.getByText('2 customers shown')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Banned only' }));
    await waitFor(() => expect(location()).toBe('/customers?search=ana%40&banned=true'));
    await waitFor(() =>
      expect(network.to('/api/customers', 'GET').at(-1)!.url.searchParams.get('banned')).toBe('true'),
    );
    await waitFor(() => expect(screen.getByText('1 customers shown')).toBeInTheDocument());

    await user.click(
      within(screen.getByRole('table', { name: 'Customers' })).getByRole('link', { name: 'ana@example.com' }),
    );
    expect(location()).toBe('/customers/7');
  });

  it('opens with the search the address holds', async () => {
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ permissions: EVERY_CUSTOMER_PERMISSION })))
      .on('GET', '/api/customers', envelope({ customers: [], next: null }));
    await renderConsole({ path: '/customers?search=42' });
    expect(await screen.findByRole('searchbox', { name: 'Search' })).toHaveValue('42');
    expect(await screen.findByText('No customer matches.')).toBeInTheDocument();
    expect(network.to('/api/customers', 'GET').map((r) => r.url.searchParams.get('search'))).toEqual(['42']);
  });

  it('shows a customer’s packages, orders, sessions and link, and bans, adds days and traffic, revokes', async () => {
    let current = details();
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ permissions: EVERY_CUSTOMER_PERMISSION })))
      .on('GET', '/api/customers/7', () => envelope(current))
      .on('POST', '/api/customers/7/ban', () => {
        current = { ...current, account: { ...current.account, banned: true } };
        return envelope(current);
      })
      .on('POST', '/api/customers/7/add-days', () => envelope(current))
      .on('POST', '/api/customers/7/add-traffic', () => envelope(current))
      .on('DELETE', '/api/customers/7/sessions/11', () => envelope({ ...current, sessions: [] }));
    const { user } = await renderConsole({ path: '/customers/7' });

    expect(await screen.findByRole('heading', { level: 1, name: 'ana@example.com' })).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: 'Traffic used of Monthly' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('25 GB of 100 GB (25%)')).toBeInTheDocument();
    expect(screen.getByText('0 B of 1.5 GB (0%)')).toBeInTheDocument();
    expect(screen.getByText('Queued')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'A100' })).toHaveAttribute('href', '/orders/A100');
    expect(screen.getByText('R$24.90')).toBeInTheDocument();
    expect(screen.getByTestId('subscription-url')).toHaveTextContent('https://panel.example.com/s/abc123');
    expect(screen.getByRole('img', { name: 'QR code of the subscription link' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Ban' }));
    const confirm = await screen.findByRole('dialog', { name: 'Ban' });
    expect(confirm).toHaveTextContent('Ban ana@example.com?');
    expect(network.to('/api/customers/7/ban', 'POST')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Ban' }));
    expect(await screen.findByRole('button', { name: 'Unban' })).toBeInTheDocument();
    expect(network.to('/api/customers/7/ban', 'POST')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const days = screen.getByRole('textbox', { name: 'Days' });
    await user.type(days, '0');
    await user.click(screen.getByRole('button', { name: 'Add days' }));
    expect(screen.getByText('A whole number from 1 to 36500.')).toBeInTheDocument();
    await user.clear(days);
    await user.type(days, '30');
    await user.click(screen.getByRole('button', { name: 'Add days' }));
    const addDays = await screen.findByRole('dialog', { name: 'Add days' });
    await user.click(within(addDays).getByRole('button', { name: 'Add days' }));
    await waitFor(() => expect(network.to('/api/customers/7/add-days', 'POST')).toHaveLength(1));
    expect(JSON.parse(network.to('/api/customers/7/add-days', 'POST')[0]!.bodyText)).toEqual({ days: 30 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const gb = screen.getByRole('textbox', { name: 'Traffic (GB)' });
    await user.type(gb, '1.0005');
    await user.click(screen.getByRole('button', { name: 'Add traffic' }));
    expect(screen.getByText(/at most three decimals/)).toBeInTheDocument();
    await user.clear(gb);
    await user.type(gb, '2,5');
    await user.click(screen.getByRole('button', { name: 'Add traffic' }));
    const addTraffic = await screen.findByRole('dialog', { name: 'Add traffic' });
    await user.click(within(addTraffic).getByRole('button', { name: 'Add traffic' }));
    await waitFor(() => expect(network.to('/api/customers/7/add-traffic', 'POST')).toHaveLength(1));
    expect(JSON.parse(network.to('/api/customers/7/add-traffic', 'POST')[0]!.bodyText)).toEqual({ gb: 2.5 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: /^Revoke the session started/ }));
    const revoke = await screen.findByRole('dialog', { name: 'Revoke' });
    await user.click(within(revoke).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No sessions.')).toBeInTheDocument();
  });

  it('shows the server’s refusal in the dialog, in the operator’s language', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ permissions: EVERY_CUSTOMER_PERMISSION })))
      .on('GET', '/api/customers/7', envelope(details()))
      .on('POST', '/api/customers/7/add-days', envelope(null, { code: 4010, msg: 'Nenhum pacote em uso' }));
    const { user } = await renderConsole({ path: '/customers/7', language: 'por' });
    await user.type(await screen.findByRole('textbox', { name: 'Dias' }), '5');
    await user.click(screen.getByRole('button', { name: 'Adicionar dias' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar dias' });
    await user.click(within(dialog).getByRole('button', { name: 'Adicionar dias' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Nenhum pacote em uso');
    expect(screen.getByText('25 GB de 100 GB (25%)')).toBeInTheDocument();
  });

  it('shows support only the actions of its role', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ role: 'support', permissions: SUPPORT_PERMISSIONS })))
      .on('GET', '/api/customers/7', envelope(details({ banned: true })));
    await renderConsole({ path: '/customers/7' });
    expect(await screen.findByRole('button', { name: 'Unban' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset subscription' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Revoke the session/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add days' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add traffic' })).not.toBeInTheDocument();
  });

  it('shows a read-only operator no action at all', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ role: 'support', permissions: ['customers.read'] })))
      .on('GET', '/api/customers/7', envelope(details()));
    await renderConsole({ path: '/customers/7' });
    expect(await screen.findByRole('heading', { level: 1, name: 'ana@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ban' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
  });
});
