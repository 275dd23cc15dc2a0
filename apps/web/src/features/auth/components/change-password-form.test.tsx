import { ERROR_CODE } from '@mutenet/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getSessionValue, getToken, SESSION_KEYS, setSessionValue, setToken } from '../../../lib/storage';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { renderWithProviders } from '../../../testing/render';
import { ChangePasswordForm } from './change-password-form';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
  setToken('tok');
  setSessionValue(SESSION_KEYS.email, 'ana@example.com');
});

function renderChange() {
  const onChanged = vi.fn();
  return { ...renderWithProviders(<ChangePasswordForm onChanged={onChanged} />, { path: '/person' }), onChanged };
}

describe('ChangePasswordForm', () => {
  it('refuses two different new passwords', async () => {
    const { user } = renderChange();
    await user.type(screen.getByLabelText('Old password'), 'anything');
    await user.type(screen.getByLabelText('New password'), 'Passw0rd1');
    await user.type(screen.getByLabelText('Repeat new password'), 'Passw0rd2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const repeat = screen.getByLabelText('Repeat new password');
    expect(repeat).toHaveAttribute('aria-invalid', 'true');
    expect(repeat).toHaveAccessibleDescription(expect.stringContaining('The new password entered twice is different'));
    expect(net.to('/mutenet/user/password')).toHaveLength(0);
  });

  it('refuses a new password that breaks the rule', async () => {
    const { user } = renderChange();
    await user.type(screen.getByLabelText('New password'), 'password');
    await user.type(screen.getByLabelText('Repeat new password'), 'password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      expect.stringContaining('Password format error'),
    );
  });

  it('changes the password, then clears storage for a new login', async () => {
    net.on('POST', '/mutenet/user/password', envelope(null));
    const { user, onChanged } = renderChange();
    await user.type(screen.getByLabelText('Old password'), 'OldPassw0rd');
    await user.type(screen.getByLabelText('New password'), 'NewPassw0rd');
    await user.type(screen.getByLabelText('Repeat new password'), 'NewPassw0rd');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    const [request] = net.to('/mutenet/user/password');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({ oldPwd: 'OldPassw0rd', newPwd: 'NewPassw0rd' });
    expect(request?.headers.get('authorization')).toBe('tok');
    expect(getToken()).toBeNull();
    expect(getSessionValue(SESSION_KEYS.email)).toBeNull();
    expect(await screen.findByText('Password changed, please log in again')).toBeInTheDocument();
  });

  it('keeps the session when the old password is wrong', async () => {
    net.on(
      'POST',
      '/mutenet/user/password',
      envelope(null, { code: ERROR_CODE.OLD_PASSWORD_WRONG, msg: 'The old password is wrong' }),
    );
    const { user, onChanged } = renderChange();
    await user.type(screen.getByLabelText('Old password'), 'Wrong1aa');
    await user.type(screen.getByLabelText('New password'), 'NewPassw0rd');
    await user.type(screen.getByLabelText('Repeat new password'), 'NewPassw0rd');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The old password is wrong')).toBeInTheDocument();
    expect(onChanged).not.toHaveBeenCalled();
    expect(getToken()).toBe('tok');
  });
});
