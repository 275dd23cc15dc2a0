import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { renderWithProviders } from '../../../testing/render';
import { ResetPasswordForm } from './reset-password-form';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch().serveCaptchas();
});

async function renderReset() {
  const onReset = vi.fn();
  const utils = renderWithProviders(<ResetPasswordForm onReset={onReset} />, { path: '/forgetPasswords' });
  await screen.findByTestId('captcha-picture');
  return { ...utils, onReset };
}

describe('ResetPasswordForm', () => {
  it('checks in the order of spec section 5', async () => {
    const { user } = await renderReset();
    const submit = screen.getByRole('button', { name: 'Reset' });
    const email = screen.getByLabelText('Email');
    const newPwd = screen.getByLabelText('New password');
    const repeat = screen.getByLabelText('Repeat new password');
    const code = screen.getByLabelText('Email code');

    // Empty email: email format error, whatever else is missing.
    await user.click(submit);
    expect(email).toHaveAccessibleDescription('Email format error');

    // Then an empty password.
    await user.type(email, 'ana@example.com');
    await user.click(submit);
    expect(newPwd).toHaveAccessibleDescription(expect.stringContaining('Password can not be blank'));

    // Then two different passwords (before their format).
    await user.type(newPwd, 'short');
    await user.type(repeat, 'other');
    await user.click(submit);
    expect(repeat).toHaveAccessibleDescription(expect.stringContaining('The two passwords are different'));

    // Then the format.
    await user.clear(repeat);
    await user.type(repeat, 'short');
    await user.click(submit);
    expect(newPwd).toHaveAccessibleDescription(expect.stringContaining('Password format error'));

    // Then the email code.
    await user.clear(newPwd);
    await user.type(newPwd, 'Passw0rd');
    await user.clear(repeat);
    await user.type(repeat, 'Passw0rd');
    await user.click(submit);
    expect(code).toHaveAccessibleDescription('Email verification code cannot be empty');

    expect(net.to('/mutenet/password/reset')).toHaveLength(0);
  });

  it('sends the email code with action reset_password, then empties the answer to the used picture', async () => {
    net.on('POST', '/mutenet/verify/code/email', envelope(null));
    const { user } = await renderReset();
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Picture code'), 'x7k2');
    await user.click(screen.getByRole('button', { name: 'Send email code' }));
    await waitFor(() => expect(net.to('/mutenet/verify/code/email')).toHaveLength(1));
    expect(net.requests.find((r) => r.path === '/mutenet/verify/code/email')?.url.searchParams.get('action')).toBe(
      'reset_password',
    );
    await waitFor(() => expect(screen.getByTestId('captcha-picture')).toHaveAttribute('data-img-id', 'captcha-2'));
    expect(screen.getByLabelText('Picture code')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('ana@example.com');
  });

  it('asks for a valid email before sending a code', async () => {
    const { user } = await renderReset();
    await user.type(screen.getByLabelText('Picture code'), 'x7k2');
    await user.click(screen.getByRole('button', { name: 'Send email code' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email format error');
    expect(net.to('/mutenet/verify/code/email')).toHaveLength(0);
  });

  it('resets the password and says so', async () => {
    net.on('POST', '/mutenet/password/reset', envelope(null));
    const { user, onReset } = await renderReset();
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Email code'), '654321');
    await user.type(screen.getByLabelText('New password'), 'NewPassw0rd');
    await user.type(screen.getByLabelText('Repeat new password'), 'NewPassw0rd');
    await user.click(screen.getByRole('button', { name: 'Reset' }));

    await waitFor(() => expect(onReset).toHaveBeenCalledOnce());
    expect(Object.fromEntries(net.to('/mutenet/password/reset')[0]?.form ?? [])).toEqual({
      email: 'ana@example.com',
      newPwd: 'NewPassw0rd',
      emailCode: '654321',
    });
    expect(await screen.findByText('Reset successful')).toBeInTheDocument();
  });
});
