import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { setToken } from '../../lib/storage';
import { envelope, type FetchStub, stubFetch } from '../../testing/fetch-stub';
import { makePackage, SUBSCRIPTION_LINK } from '../../testing/fixtures';
import { renderWithProviders } from '../../testing/render';
import DashboardRoute from './dashboard';

let net: FetchStub;

beforeEach(() => {
  setToken('tok-1');
  net = stubFetch()
    .on('GET', '/mutenet/notice', envelope({ content: '<p>Maintenance on Sunday</p>' }))
    .on('GET', '/mutenet/user/package/stat', envelope([makePackage({ pdName: 'Traffic 100 GB' })]))
    .on(
      'GET',
      '/mutenet/user/subscribe/url',
      () => new Response(SUBSCRIPTION_LINK, { headers: { 'content-type': 'text/plain' } }),
    );
});

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/pannel/:from?/:lang?" element={<DashboardRoute />} />
      <Route path="*" element={null} />
    </Routes>,
    { path },
  );
}

describe('dashboard screen', () => {
  it('shows the notice, my subscription and the shortcuts', async () => {
    renderAt('/pannel');
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Notice' })).toHaveTextContent('Maintenance on Sunday');
    expect(await screen.findByTestId('package-name')).toHaveTextContent('Traffic 100 GB');
    const shortcuts = screen.getByRole('region', { name: 'Shortcuts' });
    expect(within(shortcuts).getByRole('link', { name: /View tutorial/ })).toHaveAttribute('href', '/document');
    expect(within(shortcuts).getByRole('link', { name: /Renew subscription/ })).toHaveAttribute('href', '/shop');
    expect(net.to('/mutenet/notice')[0]?.headers.get('authorization')).toBe('tok-1');
  });

  it('keeps mobile mode on the way to the shop and the knowledge base', async () => {
    net.on('GET', '/mutenet/user/package/stat', envelope([]));
    const { user, location } = renderAt('/pannel/mobile/en');
    const none = await screen.findByRole('link', { name: /You have no subscription yet/ });
    expect(none).toHaveAttribute('href', '/shop?from=mobile');
    expect(screen.getByRole('link', { name: /View tutorial/ })).toHaveAttribute('href', '/document?from=mobile');
    expect(screen.getByRole('link', { name: /Renew subscription/ })).toHaveAttribute('href', '/shop?from=mobile');

    await user.click(screen.getByRole('button', { name: /Quick subscription/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Quick subscription' });
    await user.click(await within(dialog).findByRole('link', { name: 'How to use' }));
    await waitFor(() => expect(location()).toBe('/document?from=mobile'));
  });
});
