import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '../../../lib/toasts';
import { type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { SUBSCRIPTION_LINK } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { SubscriptionShortcuts } from './subscription-shortcuts';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch().on(
    'GET',
    '/mutenet/user/subscribe/url',
    () => new Response(SUBSCRIPTION_LINK, { headers: { 'content-type': 'text/plain; charset=utf-8' } }),
  );
});

function renderShortcuts() {
  return renderWithProviders(
    <Routes>
      <Route path="/pannel" element={<SubscriptionShortcuts tutorialHref="/document" shopHref="/shop" />} />
      <Route path="*" element={<p>elsewhere</p>} />
    </Routes>,
    { path: '/pannel' },
  );
}

async function openQuick(user: ReturnType<typeof renderShortcuts>['user']) {
  await user.click(screen.getByRole('button', { name: /Quick subscription/ }));
  return screen.findByRole('dialog', { name: 'Quick subscription' });
}

describe('SubscriptionShortcuts', () => {
  it('has four tiles: tutorial and renew lead on, quick subscription opens a dialog, problems does nothing', async () => {
    renderShortcuts();
    const section = screen.getByRole('region', { name: 'Shortcuts' });
    expect(within(section).getAllByRole('listitem')).toHaveLength(4);
    expect(within(section).getByRole('link', { name: /View tutorial/ })).toHaveAttribute('href', '/document');
    expect(within(section).getByRole('link', { name: /Renew subscription/ })).toHaveAttribute('href', '/shop');
    expect(within(section).getByRole('button', { name: /Quick subscription/ })).toHaveAttribute(
      'aria-haspopup',
      'dialog',
    );
    // Encounter problems: read as text, neither a link nor a button.
    const problems = screen.getByTestId('shortcut-problems');
    expect(problems).toHaveTextContent('Encounter problemsNot available yet');
    expect(within(problems).queryByRole('button')).not.toBeInTheDocument();
    expect(within(problems).queryByRole('link')).not.toBeInTheDocument();
    // The link is fetched only when the dialog opens.
    expect(net.to('/mutenet/user/subscribe/url')).toHaveLength(0);
  });

  it('shows the link and its QR code in the quick subscription dialog, and copies the link', async () => {
    const { user } = renderShortcuts();
    const dialog = await openQuick(user);
    expect(await within(dialog).findByRole('textbox', { name: 'Subscription link' })).toHaveValue(SUBSCRIPTION_LINK);
    const qr = within(dialog).getByRole('img', { name: 'QR code of your subscription link' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelectorAll('path').length).toBeGreaterThan(0);

    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(SUBSCRIPTION_LINK);
    expect(await navigator.clipboard.readText()).toBe(SUBSCRIPTION_LINK);
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    expect(net.to('/mutenet/user/subscribe/url')).toHaveLength(1);
  });

  it('asks to copy by hand when the browser lets nothing copy', async () => {
    const { user } = renderShortcuts();
    const dialog = await openQuick(user);
    await within(dialog).findByRole('textbox', { name: 'Subscription link' });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    const toasts = vi.spyOn(notifications, 'show');
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    await waitFor(() =>
      expect(toasts).toHaveBeenCalledWith(
        expect.objectContaining({ message: 'The link could not be copied. Select it and copy it by hand.' }),
      ),
    );
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument();
  });

  it('leads from the dialog to the knowledge base', async () => {
    const { user, location } = renderShortcuts();
    const dialog = await openQuick(user);
    await user.click(await within(dialog).findByRole('link', { name: 'How to use' }));
    await waitFor(() => expect(location()).toBe('/document'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers to try again when the link cannot be loaded', async () => {
    net.on('GET', '/mutenet/user/subscribe/url', new Response('', { status: 500 }));
    const { user } = renderShortcuts();
    const dialog = await openQuick(user);
    expect(await within(dialog).findByText('The subscription link could not be loaded.')).toBeInTheDocument();
    net.on(
      'GET',
      '/mutenet/user/subscribe/url',
      () => new Response(SUBSCRIPTION_LINK, { headers: { 'content-type': 'text/plain' } }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('textbox', { name: 'Subscription link' })).toHaveValue(SUBSCRIPTION_LINK);
  });
});
