import type { Overview } from '@mutenet/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

const DAY = 86_400_000;
const GIB = 1024 ** 3;

function overview(overrides: Partial<Overview> = {}): Overview {
  const start = Date.UTC(2026, 0, 1);
  return {
    revenue: [{ currency: 'BRL', today: '1234.50', days7: '1234.50', days30: '90071992547409931.07' }],
    ordersByStatus: {
      waiting: 1,
      paying: 0,
      close: 0,
      cancel: 0,
      timeout: 0,
      failed: 0,
      success: 2,
      unused: 0,
      rejected: 0,
      doing: 0,
      refunded: 0,
    },
    newCustomers: { today: 1, days7: 4, days30: 9 },
    runningSubscriptions: 7,
    nodes: { online: 3, offline: 1 },
    trafficByDay: Array.from({ length: 30 }, (_, index) => ({
      day: start + index * DAY,
      upload: index === 29 ? GIB : 0,
      download: index === 29 ? 2 * GIB : 0,
    })),
    trafficByNode: [
      { nodeId: 4, name: 'Tokyo', upload: GIB, download: GIB },
      { nodeId: 9, name: null, upload: 0, download: GIB },
    ],
    ...overrides,
  };
}

const overviewSession = sessionOf({ role: 'manager', permissions: ['overview.read'] });

afterEach(() => {
  vi.useRealTimers();
});

describe('the overview screen', () => {
  it('shows revenue as exact decimals, orders, customers, nodes and traffic with text for the charts', async () => {
    stubFetch().on('GET', '/api/session', envelope(overviewSession)).on('GET', '/api/overview', envelope(overview()));
    await renderConsole({ path: '/' });

    // The first screen to load charts takes a while to import in a test environment.
    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 }, { timeout: 10_000 })).toBeInTheDocument();
    const revenue = await screen.findByRole('table', { name: 'Revenue' });
    const brl = within(revenue).getByRole('row', { name: /BRL/ });
    expect(brl).toHaveTextContent('R$1,234.50');
    expect(brl).toHaveTextContent('R$90,071,992,547,409,931.07');

    const orders = screen.getByRole('table', { name: 'Orders of the last 30 days by status' });
    expect(within(orders).getByRole('row', { name: /Payment successful/ })).toHaveTextContent('2');
    expect(within(orders).queryByText('Paying')).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'New customers' })).getByText('9')).toBeInTheDocument();
    expect(screen.getByTestId('overview-running')).toHaveTextContent('7');
    expect(screen.getByTestId('overview-nodes')).toHaveTextContent(/Online\s*3\s*Offline\s*1/);

    const byDay = screen.getByRole('table', { name: 'Traffic by day (last 30 days)' });
    expect(within(byDay).getByRole('row', { name: /Jan 30/ })).toHaveTextContent('2 GB1 GB');
    expect(screen.getByText(/3 GB in the last 30 days; the busiest day was Jan 30 with 3 GB/)).toBeInTheDocument();
    const byNode = screen.getByRole('table', { name: 'Traffic by node (last 30 days)' });
    expect(within(byNode).getByRole('row', { name: /Tokyo/ })).toHaveTextContent('2 GB');
    expect(within(byNode).getByRole('row', { name: /Removed node #9/ })).toHaveTextContent('1 GB');
  });

  it('writes the figures in the screen’s language, and says when there are none', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(overviewSession))
      .on(
        'GET',
        '/api/overview',
        envelope(
          overview({
            revenue: [{ currency: 'USD', today: '0.00', days7: '4.90', days30: '1234.50' }],
            trafficByDay: [],
            trafficByNode: [],
          }),
        ),
      );
    await renderConsole({ path: '/overview', language: 'por' });

    const revenue = await screen.findByRole('table', { name: 'Receita' });
    expect(within(revenue).getByRole('row', { name: /USD/ })).toHaveTextContent('$0,00$4,90$1.234,50');
    expect(screen.getByRole('table', { name: 'Pedidos dos últimos 30 dias por situação' })).toHaveTextContent(
      'Aguardando pagamento',
    );
    expect(screen.getAllByText('Nenhum tráfego nos últimos 30 dias.')).toHaveLength(2);
  });

  it('fetches the figures again every 30 seconds while open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const network = stubFetch()
      .on('GET', '/api/session', envelope(overviewSession))
      .on('GET', '/api/overview', envelope(overview()));
    await renderConsole({ path: '/overview' });
    await screen.findByRole('table', { name: 'Revenue' });
    expect(network.to('/api/overview')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(() => expect(network.to('/api/overview')).toHaveLength(2));
  });
});
