import type { PackageStat } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { makePackage } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { SubscriptionOverview } from './subscription-overview';

const DAY_S = 24 * 60 * 60;
const GB = 1024 ** 3;
let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
});

function servePackages(packages: PackageStat[]) {
  net.on('GET', '/mutenet/user/package/stat', envelope(packages));
}

function renderOverview() {
  return renderWithProviders(<SubscriptionOverview shopHref="/shop" />);
}

describe('SubscriptionOverview', () => {
  it('leads to the shop when there is no package', async () => {
    servePackages([]);
    renderOverview();
    const section = await screen.findByRole('region', { name: 'My subscription' });
    const tile = await within(section).findByRole('link', { name: /You have no subscription yet/ });
    expect(tile).toHaveAttribute('href', '/shop');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the running package: name, expiry time, days remaining, traffic bar and used of total', async () => {
    const now = Math.floor(Date.now() / 1000);
    const running = makePackage({
      pdName: 'Traffic 100 GB',
      endAt: now + 12 * DAY_S + 3600,
      trafficUsed: 12.5 * GB,
      trafficTotal: 100 * GB,
      trafficUsedPct: 12.5,
    });
    servePackages([running]);
    renderOverview();

    expect(await screen.findByTestId('package-name')).toHaveTextContent('Traffic 100 GB');
    const expiry = screen.getByTestId('package-expiry');
    expect(expiry).toHaveTextContent(dayjs(running.endAt * 1000).format('YYYY/MM/DD HH:mm:ss'));
    expect(expiry.textContent).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(screen.getByTestId('package-days')).toHaveTextContent('13');

    const bar = screen.getByRole('progressbar', { name: 'Traffic used' });
    expect(bar).toHaveAttribute('aria-valuenow', '12.5');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByTestId('package-traffic')).toHaveTextContent('12.5 GB of 100 GB (12.5%)');
    expect(screen.queryByTestId('subscription-queued')).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('lists the queued packages with their start time', async () => {
    const now = Math.floor(Date.now() / 1000);
    const running = makePackage({ endAt: now + 5 * DAY_S });
    const next = makePackage({
      pdName: 'Unlimited time plan',
      startAt: running.endAt,
      endAt: running.endAt + 30 * DAY_S,
    });
    const after = makePackage({ pdName: 'Traffic 500 GB', startAt: next.endAt, endAt: next.endAt + 90 * DAY_S });
    servePackages([running, next, after]);
    renderOverview();

    expect(await screen.findByTestId('package-name')).toHaveTextContent(running.pdName);
    expect(screen.getByRole('heading', { level: 3, name: 'Next packages' })).toBeInTheDocument();
    const items = within(screen.getByTestId('subscription-queued')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      `Unlimited time planStarts ${dayjs(next.startAt * 1000).format('YYYY/MM/DD HH:mm:ss')}`,
      `Traffic 500 GBStarts ${dayjs(after.startAt * 1000).format('YYYY/MM/DD HH:mm:ss')}`,
    ]);
    expect(screen.getAllByRole('progressbar')).toHaveLength(1);
  });

  it('keeps the bar within 0 to 100 and shows small and large amounts in their units', async () => {
    servePackages([makePackage({ trafficUsed: 1536, trafficTotal: 2 * 1024 ** 4, trafficUsedPct: 0 })]);
    renderOverview();
    expect(await screen.findByTestId('package-traffic')).toHaveTextContent('1.5 KB of 2 TB (0%)');
    expect(screen.getByRole('progressbar', { name: 'Traffic used' })).toHaveAttribute('aria-valuenow', '0');
  });

  it('shows an ended package as 0 days and a full bar', async () => {
    const now = Math.floor(Date.now() / 1000);
    servePackages([makePackage({ endAt: now - 60, trafficUsed: 100 * GB, trafficUsedPct: 100 })]);
    renderOverview();
    expect(await screen.findByTestId('package-days')).toHaveTextContent('0');
    expect(screen.getByRole('progressbar', { name: 'Traffic used' })).toHaveAttribute('aria-valuenow', '100');
  });

  it('speaks the language on screen and asks again in it', async () => {
    servePackages([makePackage()]);
    renderOverview();
    await screen.findByTestId('package-name');
    await setLanguage('por');
    await waitFor(() => expect(net.to('/mutenet/user/package/stat')).toHaveLength(2));
    expect(net.to('/mutenet/user/package/stat')[1]?.headers.get('accept-language')).toBe('pt-BR');
    expect(await screen.findByRole('region', { name: 'Minha assinatura' })).toBeInTheDocument();
    expect(screen.getByTestId('package-traffic')).toHaveTextContent('12,5 GB de 100 GB (12,5%)');
    expect(screen.getByRole('progressbar', { name: 'Tráfego usado' })).toBeInTheDocument();
  });
});
