import { ERROR_CODE } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { getSessionValue, getToken, SESSION_KEYS, setToken } from '../../../lib/storage';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { renderWithProviders } from '../../../testing/render';
import { LoginForm } from './login-form';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch().serveCaptchas();
});

async function renderLogin() {
  const onLoggedIn = vi.fn();
  const utils = renderWithProviders(<LoginForm onLoggedIn={onLoggedIn} />, { path: '/login' });
  const captcha = await screen.findByTestId('captcha-picture');
  return { ...utils, onLoggedIn, captcha };
}

describe('LoginForm', () => {
  it('loads a picture code and loads a new one when the picture is pressed', async () => {
    const { user, captcha } = await renderLogin();
    expect(captcha).toHaveAttribute('data-img-id', 'captcha-1');
    const refresh = screen.getByRole('button', { name: 'Picture verification code, select to get a new one' });
    await user.click(refresh);
    await waitFor(() => expect(screen.getByTestId('captcha-picture')).toHaveAttribute('data-img-id', 'captcha-2'));
    expect(net.to('/mutenet/verify/code/img')).toHaveLength(2);
  });

  it('checks the fields in the spec order, on the field, without calling the server', async () => {
    const { user } = await renderLogin();
    const email = screen.getByLabelText('Email');
    const submit = screen.getByRole('button', { name: 'Log in' });

    await user.click(submit);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('All fields must not be empty');
    expect(email).toHaveFocus();

    await user.type(email, 'ana@example.com');
    await user.click(submit);
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAccessibleDescription('All fields must not be empty');
    expect(password).toHaveFocus();

    await user.type(password, 'Passw0rd');
    await user.click(submit);
    expect(screen.getByLabelText('Picture code')).toHaveAccessibleDescription('All fields must not be empty');

    await user.type(screen.getByLabelText('Picture code'), 'abcd');
    await user.clear(email);
    await user.type(email, 'ana@example');
    await user.click(submit);
    expect(email).toHaveAccessibleDescription('Email format error');

    expect(net.to('/mutenet/login')).toHaveLength(0);
  });

  it('shows the message in the language on screen', async () => {
    await setLanguage('por');
    const { user } = await renderLogin();
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Todos os campos devem ser preenchidos');
  });

  it('signs in with a form-encoded body, keeps the token from the header and the email', async () => {
    net.on('POST', '/mutenet/login', envelope({ user: 'ana@example.com' }, { headers: { authorization: 'tok-123' } }));
    const { user, onLoggedIn } = await renderLogin();
    await user.type(screen.getByLabelText('Email'), ' ana@example.com ');
    await user.type(screen.getByLabelText('Password'), 'Passw0rd');
    await user.type(screen.getByLabelText('Picture code'), 'x7k2');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledOnce());
    const [request] = net.to('/mutenet/login');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      email: 'ana@example.com',
      password: 'Passw0rd',
      imgCode: 'x7k2',
      imgId: 'captcha-1',
    });
    expect(getToken()).toBe('tok-123');
    expect(getSessionValue(SESSION_KEYS.email)).toBe('ana@example.com');
  });

  it('after a failed login shows the server message, loads a new picture and clears the code', async () => {
    net.on(
      'POST',
      '/mutenet/login',
      envelope(null, { code: ERROR_CODE.CAPTCHA_INVALID, msg: 'The picture verification code is wrong' }),
    );
    const { user, onLoggedIn } = await renderLogin();
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'Passw0rd');
    await user.type(screen.getByLabelText('Picture code'), 'zzzz');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Mistake')).toBeInTheDocument();
    expect(within(toast).getByText('The picture verification code is wrong')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('captcha-picture')).toHaveAttribute('data-img-id', 'captcha-2'));
    expect(screen.getByLabelText('Picture code')).toHaveValue('');
    expect(onLoggedIn).not.toHaveBeenCalled();
    expect(getToken()).toBeNull();
  });

  it('with a stored token checks the session (no body) and goes straight in', async () => {
    setToken('saved-token');
    net.on('POST', '/mutenet/login', envelope({ user: 'ana@example.com' }));
    const onLoggedIn = vi.fn();
    renderWithProviders(<LoginForm onLoggedIn={onLoggedIn} />);

    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledOnce());
    expect(net.to('/mutenet/login')).toHaveLength(1);
    const [check] = net.to('/mutenet/login');
    expect(check?.bodyText).toBe('');
    expect(check?.headers.get('authorization')).toBe('saved-token');
    expect(net.to('/mutenet/verify/code/img')).toHaveLength(0);
    expect(getSessionValue(SESSION_KEYS.email)).toBe('ana@example.com');
  });

  it('with an expired token falls back to the form with a fresh picture code', async () => {
    setToken('expired');
    net.on('POST', '/mutenet/login', new Response('', { status: 401 }));
    const onLoggedIn = vi.fn();
    renderWithProviders(<LoginForm onLoggedIn={onLoggedIn} />);

    expect(await screen.findByTestId('captcha-picture')).toBeInTheDocument();
    expect(getToken()).toBeNull();
    expect(onLoggedIn).not.toHaveBeenCalled();
    expect(await screen.findByText('Login expired')).toBeInTheDocument();
  });
});
