import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setToken } from '../../lib/storage';
import { envelope, type FetchStub, stubFetch } from '../../testing/fetch-stub';
import { renderWithProviders } from '../../testing/render';
import PersonRoute from './person';

let net: FetchStub;

beforeEach(() => {
  setToken('tok-1');
  net = stubFetch();
});

describe('user centre screen', () => {
  it('has the password change and the subscription reset, each in a named section', async () => {
    net.on('PUT', '/mutenet/user/subscribe/url', envelope(null, { msg: 'Subscription information reset' }));
    const { user } = renderWithProviders(<PersonRoute />, { path: '/person' });
    expect(screen.getByRole('region', { name: 'Change password' })).toBeInTheDocument();
    const reset = screen.getByRole('region', { name: 'Reset subscription information' });
    await user.click(within(reset).getByRole('button', { name: 'Reset subscription information' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset subscription information?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Subscription information reset')).toBeInTheDocument();
    expect(net.to('/mutenet/user/subscribe/url', 'PUT')[0]?.headers.get('authorization')).toBe('tok-1');
  });
});
