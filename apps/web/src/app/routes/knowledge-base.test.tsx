import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { setToken } from '../../lib/storage';
import { type FetchStub, json, stubFetch } from '../../testing/fetch-stub';
import { RUNTIME_CONFIG, SUBSCRIPTION_LINK } from '../../testing/fixtures';
import { renderWithProviders } from '../../testing/render';
import KnowledgeBaseRoute from './knowledge-base';

let net: FetchStub;

beforeEach(() => {
  setToken('tok-1');
  net = stubFetch()
    .on('GET', '/person/config.json', json(RUNTIME_CONFIG))
    .on(
      'GET',
      '/mutenet/user/subscribe/url',
      () => new Response(SUBSCRIPTION_LINK, { headers: { 'content-type': 'text/plain' } }),
    );
});

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/document" element={<KnowledgeBaseRoute />} />
      <Route path="*" element={null} />
    </Routes>,
    { path },
  );
}

describe('knowledge base screen', () => {
  it("copies the subscription link from a guide's second step", async () => {
    const { user } = renderAt('/document');
    expect(screen.getByRole('heading', { level: 1, name: 'Knowledge base' })).toBeInTheDocument();
    // The link is not fetched before a guide is open.
    expect(net.to('/mutenet/user/subscribe/url')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: /FoXray \(iOS\)/ }));
    const drawer = await screen.findByRole('dialog', { name: 'FoXray (iOS)' });
    const copy = within(drawer).getByRole('button', { name: 'Copy link' });
    await waitFor(() => expect(copy).toBeEnabled());
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe(SUBSCRIPTION_LINK);
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
  });

  it('keeps mobile mode on the way to the shop', async () => {
    const { user, location } = renderAt('/document?from=mobile');
    await user.click(screen.getByRole('button', { name: /Clash for Windows/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Clash for Windows' });
    const buy = within(drawer).getByRole('link', { name: 'Purchase subscription' });
    expect(buy).toHaveAttribute('href', '/shop?from=mobile');
    await user.click(buy);
    await waitFor(() => expect(location()).toBe('/shop?from=mobile'));
  });
});
