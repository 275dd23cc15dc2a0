import type { OperatorAccount } from '@mutenet/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

function operator(overrides: Partial<OperatorAccount>): OperatorAccount {
  return {
    id: 1,
    email: 'owner@example.com',
    role: 'owner',
    totpEnrolled: true,
    mustChangePassword: false,
    disabled: false,
    createdAt: 0,
    ...overrides,
  };
}

describe('the operators screen', () => {
  it('adds an operator with a role and shows the one-time password once; changes roles, disables, resets', async () => {
    const support = operator({ id: 2, email: 'help@example.com', role: 'support', mustChangePassword: true });
    const operators = [operator({}), support];
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOf()))
      .on('GET', '/api/operators', () => envelope({ operators }))
      .on('POST', '/api/operators', (request) => {
        const { email, role } = JSON.parse(request.bodyText);
        const added = operator({ id: 3, email, role, mustChangePassword: true, totpEnrolled: false });
        operators.push(added);
        return envelope({ operator: added, password: 'Once-9f2k' });
      })
      .on('PUT', '/api/operators/2', (request) => envelope({ ...support, ...JSON.parse(request.bodyText) }))
      .on('POST', '/api/operators/2/reset-password', envelope({ operator: support, password: 'Again-7h1q' }));
    const { user } = await renderConsole({ path: '/operators' });

    const table = await screen.findByRole('table', { name: 'Operators' });
    expect(within(table).getByText('help@example.com')).toBeInTheDocument();
    expect(within(table).getByText('Must change password')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'New operator' });
    await user.type(within(form).getByLabelText(/^Email/), 'new@example.com');
    await user.selectOptions(within(form).getByLabelText('Role'), 'manager');
    await user.click(within(form).getByRole('button', { name: 'Add operator' }));
    const dialog = await screen.findByRole('dialog', { name: 'One-time password for new@example.com' });
    expect(within(dialog).getByTestId('one-time-password')).toHaveTextContent('Once-9f2k');
    expect(JSON.parse(network.to('/api/operators', 'POST')[0]!.bodyText)).toEqual({
      email: 'new@example.com',
      role: 'manager',
    });
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(await within(table).findByText('new@example.com')).toBeInTheDocument();
    expect(screen.queryByText('Once-9f2k')).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Role of help@example.com'), 'manager');
    const actions = screen.getByRole('group', { name: 'Actions for help@example.com' });
    await user.click(within(actions).getByRole('button', { name: 'Disable' }));
    expect(network.to('/api/operators/2', 'PUT').map((request) => JSON.parse(request.bodyText))).toEqual([
      { role: 'manager' },
      { disabled: true },
    ]);

    await user.click(within(actions).getByRole('button', { name: 'Reset password' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset password' });
    await user.click(within(confirm).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('dialog', { name: 'One-time password for help@example.com' });
    expect(within(shown).getByTestId('one-time-password')).toHaveTextContent('Again-7h1q');
  });

  it('shows the server’s refusal (the last owner) in the operator’s language', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOf()))
      .on('GET', '/api/operators', envelope({ operators: [operator({})] }))
      .on('PUT', '/api/operators/1', envelope(null, { code: 6004, msg: 'The last owner cannot be removed' }));
    const { user } = await renderConsole({ path: '/operators' });
    await user.selectOptions(await screen.findByLabelText('Role of owner@example.com'), 'support');
    expect(await screen.findByRole('alert')).toHaveTextContent('The last owner cannot be removed');
  });
});
