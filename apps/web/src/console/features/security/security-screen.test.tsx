import { type ApiToken, ERRORS, type Passkey } from '@mutenet/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { CREDENTIAL_ID, fakeAuthenticator, REGISTRATION_OPTIONS } from '../../session/webauthn-stub';
import { renderConsole, sessionOf } from '../../testing';

const PASSKEYS = '/api/session/passkeys';

function passkey(overrides: Partial<Passkey>): Passkey {
  return { id: 1, name: 'Laptop', createdAt: Date.UTC(2026, 0, 2), lastUsedAt: null, ...overrides };
}

describe('the security screen', () => {
  it('adds a passkey with a name, says why the browser refused one, and removes one after a confirmation', async () => {
    const authenticator = fakeAuthenticator();
    authenticator.create.mockRejectedValueOnce(new DOMException('already registered', 'InvalidStateError'));
    const passkeys = [passkey({ id: 1, name: 'Laptop', lastUsedAt: Date.UTC(2026, 0, 3) })];
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ role: 'support', permissions: ['customers.read'] })))
      .on('GET', PASSKEYS, () => envelope({ passkeys }))
      .on('POST', `${PASSKEYS}/options`, envelope({ options: REGISTRATION_OPTIONS }))
      .on('POST', PASSKEYS, (request) => {
        const added = passkey({ id: 2, name: JSON.parse(request.bodyText).name });
        passkeys.push(added);
        return envelope({ passkey: added, next: 'ready' });
      })
      .on('DELETE', `${PASSKEYS}/1`, () => {
        passkeys.shift();
        return envelope(null);
      })
      .on('DELETE', `${PASSKEYS}/2`, envelope(null, { code: ERRORS.LAST_SECOND_FACTOR.code, msg: 'Keep one' }));
    const { user } = await renderConsole({ path: '/security' });

    const table = await screen.findByRole('table', { name: 'My passkeys' });
    expect(within(table).getByText('Laptop')).toBeInTheDocument();
    // Owners' API tokens are not a support operator's.
    expect(screen.queryByRole('heading', { name: 'API tokens' })).not.toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Add a passkey' });
    await user.type(within(form).getByLabelText(/^Name of the passkey/), 'Phone');
    await user.click(within(form).getByRole('button', { name: 'Add passkey' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('already holds one of your passkeys');
    expect(network.to(PASSKEYS, 'POST')).toHaveLength(0);
    await user.click(within(form).getByRole('button', { name: 'Add passkey' }));
    expect(await within(form).findByText('Passkey “Phone” added.')).toBeInTheDocument();
    expect(await within(table).findByText('Phone')).toBeInTheDocument();
    expect(JSON.parse(network.to(PASSKEYS, 'POST')[0]!.bodyText).response.id).toBe(CREDENTIAL_ID);

    await user.click(within(table).getByRole('button', { name: 'Remove Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the passkey' });
    expect(dialog).toHaveTextContent('Remove the passkey “Laptop”?');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await expect.poll(() => within(table).queryByText('Laptop')).toBeNull();
    expect(network.to(`${PASSKEYS}/1`, 'DELETE')).toHaveLength(1);

    // The server keeps an owner's last second factor: its answer is shown in the dialog.
    await user.click(within(table).getByRole('button', { name: 'Remove Phone' }));
    const again = await screen.findByRole('dialog', { name: 'Remove the passkey' });
    await user.click(within(again).getByRole('button', { name: 'Remove' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent('Keep one');
  });

  it('lets an owner make an API token shown once, and revoke one after a confirmation', async () => {
    const tokens: ApiToken[] = [];
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOf()))
      .on('GET', PASSKEYS, envelope({ passkeys: [] }))
      .on('GET', '/api/tokens', () => envelope({ tokens }))
      .on('POST', '/api/tokens', (request) => {
        const { name, role } = JSON.parse(request.bodyText);
        const token: ApiToken = {
          id: 5,
          name,
          role,
          createdBy: { id: 1, email: 'owner@example.com' },
          createdAt: Date.UTC(2026, 0, 2),
          lastUsedAt: null,
        };
        tokens.push(token);
        return envelope({ ...token, token: 'mnt_secret_once' });
      })
      .on('DELETE', '/api/tokens/5', () => {
        tokens.pop();
        return envelope(null);
      });
    const { user } = await renderConsole({ path: '/security' });

    expect(await screen.findByText('There are no API tokens.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'New API token' });
    await user.type(within(form).getByLabelText(/^Name of the token/), 'Nightly report');
    await user.selectOptions(within(form).getByLabelText('Role'), 'manager');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    const dialog = await screen.findByRole('dialog', { name: 'API token “Nightly report”' });
    expect(within(dialog).getByTestId('api-token')).toHaveTextContent('mnt_secret_once');
    expect(dialog).toHaveTextContent('shown only this once. Anyone who has it acts as a Manager');
    expect(JSON.parse(network.to('/api/tokens', 'POST')[0]!.bodyText)).toEqual({
      name: 'Nightly report',
      role: 'manager',
    });
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    const table = await screen.findByRole('table', { name: 'API tokens' });
    expect(within(table).getByText('Manager')).toBeInTheDocument();
    expect(screen.queryByText('mnt_secret_once')).not.toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Revoke Nightly report' }));
    const revoke = await screen.findByRole('dialog', { name: 'Revoke the API token' });
    await user.click(within(revoke).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('There are no API tokens.')).toBeInTheDocument();
    expect(network.to('/api/tokens/5', 'DELETE')).toHaveLength(1);
  });
});
