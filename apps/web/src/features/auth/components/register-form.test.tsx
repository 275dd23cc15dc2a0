import { ERROR_CODE } from '@mutenet/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { renderWithProviders } from '../../../testing/render';
import { RegisterForm } from './register-form';

const HINT =
  'Passwords must combine uppercase and lowercase letters and numbers, 6 to 24 characters; special characters may be used.';
const PICTURE_FIRST = 'Please fill in the picture verification code first';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch().serveCaptchas();
});

async function renderRegister() {
  const onRegistered = vi.fn();
  const utils = renderWithProviders(<RegisterForm onRegistered={onRegistered} />, { path: '/register' });
  await screen.findByTestId('captcha-picture');
  return { ...utils, onRegistered };
}

async function fillValidForm(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.type(screen.getByLabelText('Username'), '  Ana  ');
  await user.type(screen.getByLabelText('Email'), 'ana@example.com');
  await user.type(screen.getByLabelText('Email code'), '123456');
  await user.type(screen.getByLabelText('Password'), 'Passw0rd');
  await user.type(screen.getByLabelText('Repeat password'), 'Passw0rd');
}

describe('RegisterForm', () => {
  it('keeps the register button disabled until the licence agreement is ticked', async () => {
    const { user } = await renderRegister();
    const submit = screen.getByRole('button', { name: 'Register' });
    expect(submit).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /I have read and agree to the/ }));
    expect(submit).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: /I have read and agree to the/ }));
    expect(submit).toBeDisabled();
  });

  it('links to the licence agreement in a new tab, in the language on screen', async () => {
    await renderRegister();
    const link = screen.getByRole('link', { name: /user licence agreement/ });
    expect(link).toHaveAttribute('href', '/showDocx?lang=en');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it('opens the licence agreement in Portuguese or Chinese when the screen is in it', async () => {
    await setLanguage('por');
    const { unmount } = await renderRegister();
    expect(screen.getByTestId('terms-link')).toHaveAttribute('href', '/showDocx?lang=por');
    unmount();
    await setLanguage('zh');
    await renderRegister();
    expect(screen.getByTestId('terms-link')).toHaveAttribute('href', '/showDocx?lang=zh');
  });

  it('shows the password rule under each password field until that field meets it', async () => {
    const { user } = await renderRegister();
    const password = screen.getByLabelText('Password');
    const repeat = screen.getByLabelText('Repeat password');
    expect(password).toHaveAccessibleDescription(HINT);
    expect(repeat).toHaveAccessibleDescription(HINT);

    await user.type(password, 'passw0rd');
    expect(password).toHaveAccessibleDescription(HINT);
    await user.clear(password);
    await user.type(password, 'Passw0rd');
    expect(password).not.toHaveAccessibleDescription(HINT);
    expect(repeat).toHaveAccessibleDescription(HINT);

    await user.type(repeat, 'Passw0rd');
    expect(repeat).not.toHaveAccessibleDescription(HINT);
  });

  it('asks for the picture code under the email-code row while it is empty', async () => {
    const { user } = await renderRegister();
    expect(screen.getByText(PICTURE_FIRST)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Picture code'), 'ab');
    expect(screen.queryByText(PICTURE_FIRST)).not.toBeInTheDocument();
  });

  it('does not send an email code without the picture code', async () => {
    const { user } = await renderRegister();
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send email code' }));
    expect(screen.getByLabelText('Picture code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Picture code')).toHaveFocus();
    expect(net.to('/mutenet/verify/code/email')).toHaveLength(0);
  });

  it('sends the email code for registration, then waits and loads a new picture', async () => {
    net.on('POST', '/mutenet/verify/code/email', envelope(null, { msg: 'Sent successfully' }));
    const { user } = await renderRegister();
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Picture code'), 'x7k2');
    await user.click(screen.getByRole('button', { name: 'Send email code' }));

    expect(await screen.findByText('Sent successfully')).toBeInTheDocument();
    const [request] = net.to('/mutenet/verify/code/email');
    expect(request?.url.searchParams.get('action')).toBe('register');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      imgId: 'captcha-1',
      imgCode: 'x7k2',
      email: 'ana@example.com',
    });
    expect(await screen.findByRole('button', { name: /^Resend \(\d+ s\)$/ })).toBeDisabled();
    await waitFor(() => expect(screen.getByTestId('captcha-picture')).toHaveAttribute('data-img-id', 'captcha-2'));
    // The answer to the used picture is gone with it; the rest of the form stays.
    expect(screen.getByLabelText('Picture code')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('ana@example.com');
  });

  it('checks the form in the spec order: passwords must match', async () => {
    const { user } = await renderRegister();
    await fillValidForm(user);
    await user.type(screen.getByLabelText('Repeat password'), 'x');
    await user.click(screen.getByRole('checkbox', { name: /I have read/ }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByLabelText('Repeat password')).toHaveAccessibleDescription('The two passwords are different');
    expect(net.to('/mutenet/register')).toHaveLength(0);
  });

  it('leaves the invitation code out when it is empty, and registers', async () => {
    net.on('POST', '/mutenet/register', envelope(null));
    const { user, onRegistered } = await renderRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole('checkbox', { name: /I have read/ }));
    await user.click(screen.getByRole('button', { name: 'Register' }));

    await waitFor(() => expect(onRegistered).toHaveBeenCalledOnce());
    const [request] = net.to('/mutenet/register');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      name: 'Ana',
      email: 'ana@example.com',
      password: 'Passw0rd',
      emailCode: '123456',
    });
    expect(await screen.findByText('Registration successful')).toBeInTheDocument();
  });

  it('sends the invitation code when one is typed', async () => {
    net.on('POST', '/mutenet/register', envelope(null));
    const { user, onRegistered } = await renderRegister();
    await fillValidForm(user);
    await user.type(screen.getByLabelText('Invitation code (optional)'), 'FRIEND-1');
    await user.click(screen.getByRole('checkbox', { name: /I have read/ }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(onRegistered).toHaveBeenCalledOnce());
    expect(net.to('/mutenet/register')[0]?.form.get('inviteCode')).toBe('FRIEND-1');
  });

  it('stays on the form when the server refuses', async () => {
    net.on('POST', '/mutenet/register', envelope(null, { code: ERROR_CODE.EMAIL_TAKEN, msg: 'Already registered' }));
    const { user, onRegistered } = await renderRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole('checkbox', { name: /I have read/ }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Already registered')).toBeInTheDocument();
    expect(onRegistered).not.toHaveBeenCalled();
  });
});
