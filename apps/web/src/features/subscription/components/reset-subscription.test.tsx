import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { makePackage } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { CopyLinkButton } from './copy-link-button';
import { ResetSubscription } from './reset-subscription';
import { SubscriptionOverview } from './subscription-overview';

const OLD_LINK = 'https://panel.example/sub/old-token';
const NEW_LINK = 'https://panel.example/sub/new-token';

let net: FetchStub;
let link: string;

beforeEach(() => {
  link = OLD_LINK;
  net = stubFetch()
    .on('GET', '/mutenet/user/subscribe/url', () => new Response(link, { headers: { 'content-type': 'text/plain' } }))
    .on('GET', '/mutenet/user/package/stat', envelope([makePackage()]));
});

function renderReset() {
  return renderWithProviders(
    <>
      <CopyLinkButton />
      <SubscriptionOverview shopHref="/shop" />
      <ResetSubscription />
    </>,
  );
}

describe('ResetSubscription', () => {
  it('warns that the old link stops working, resets on confirmation, shows the message and refreshes the link', async () => {
    net.on('PUT', '/mutenet/user/subscribe/url', () => {
      link = NEW_LINK;
      return envelope(null, { msg: 'Subscription information reset' });
    });
    const { user } = renderReset();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy link' })).toBeEnabled());
    await screen.findByTestId('package-name');

    await user.click(screen.getByRole('button', { name: 'Reset subscription information' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset subscription information?' });
    expect(dialog).toHaveAccessibleDescription(/subscription link and connection credential stop working at once/);
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));

    expect(await screen.findByText('Subscription information reset')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [request] = net.to('/mutenet/user/subscribe/url', 'PUT');
    expect(request?.bodyText).toBe('');
    // The cached link and packages are read again: the copy button now copies the new link.
    await waitFor(() => expect(net.to('/mutenet/user/subscribe/url', 'GET')).toHaveLength(2));
    await waitFor(() => expect(net.to('/mutenet/user/package/stat')).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy link' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(NEW_LINK);
  });

  it('resets nothing when the customer steps back', async () => {
    const { user } = renderReset();
    await user.click(screen.getByRole('button', { name: 'Reset subscription information' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset subscription information?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(net.to('/mutenet/user/subscribe/url', 'PUT')).toHaveLength(0);
  });

  it('keeps the dialog open and shows the server message when the reset is refused', async () => {
    net.on('PUT', '/mutenet/user/subscribe/url', envelope(null, { code: 429, status: 429, msg: 'Too many resets' }));
    const { user } = renderReset();
    await user.click(screen.getByRole('button', { name: 'Reset subscription information' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset subscription information?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Too many resets')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Reset subscription information?' })).toBeInTheDocument();
  });
});
