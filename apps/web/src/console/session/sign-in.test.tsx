import { ERRORS } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../testing/fetch-stub';
import { screensFor } from '../screens';
import { renderConsole, sessionOf } from '../testing';
import { CREDENTIAL_ID, fakeAuthenticator, REGISTRATION_OPTIONS, SIGN_IN_OPTIONS } from './webauthn-stub';

const SESSION = '/api/session';

describe('signing in to the console', () => {
  it('asks for the authenticator code when the server requires it, then opens the sections the role may see', async () => {
    let signedIn = false;
    const network = stubFetch()
      .on('GET', SESSION, () =>
        signedIn ? envelope(sessionOf()) : envelope(null, { code: 401, msg: 'Sign in first', status: 401 }),
      )
      .on('POST', SESSION, (request) => {
        const body = JSON.parse(request.bodyText);
        if (!body.code) {
          return envelope(
            { factors: ['totp'] },
            { code: ERRORS.SECOND_FACTOR_REQUIRED.code, msg: 'Enter the code of your app' },
          );
        }
        signedIn = true;
        return envelope({ next: 'ready' });
      });
    const { user, location } = await renderConsole();

    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'owner@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the code of your app');
    await user.type(screen.getByLabelText(/^Authenticator code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const nav = await screen.findByRole('navigation', { name: 'Console sections' });
    expect(within(nav).getByRole('link', { name: 'Operators' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Audit log' })).toBeInTheDocument();
    // The owner lands on the first section the role opens.
    await waitFor(() => expect(location()).toBe(`/${screensFor(sessionOf().permissions)[0]!.path}`));

    const [first, second] = network.to(SESSION, 'POST');
    expect(JSON.parse(first!.bodyText)).toEqual({ email: 'owner@example.com', password: 'Secret123' });
    expect(JSON.parse(second!.bodyText)).toEqual({ email: 'owner@example.com', password: 'Secret123', code: '123456' });
    expect(first!.headers.get('content-type')).toBe('application/json');
  });

  it('shows a support operator only what their role may open', async () => {
    stubFetch().on('GET', SESSION, envelope(sessionOf({ role: 'support', permissions: ['customers.read'] })));
    await renderConsole();
    const nav = await screen.findByRole('navigation', { name: 'Console sections' });
    expect(within(nav).queryByRole('link', { name: 'Operators' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
    // Their own account's section is every operator's.
    expect(within(nav).getByRole('link', { name: 'Security' })).toBeInTheDocument();
  });

  it('changes the one-time password, then enrols an authenticator with the QR code and the key', async () => {
    let step: 'password' | 'totp' | 'ready' = 'password';
    const network = stubFetch()
      .on('GET', SESSION, () =>
        envelope(
          sessionOf({
            mustChangePassword: step === 'password',
            secondFactorPending: step !== 'ready',
            totpEnrolled: step === 'ready',
            permissions: step === 'ready' ? ['operators.manage'] : [],
          }),
        ),
      )
      .on('POST', `${SESSION}/password`, () => {
        step = 'totp';
        return envelope({ next: 'enrol-second-factor' });
      })
      .on(
        'POST',
        `${SESSION}/totp`,
        envelope({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' }),
      )
      .on('POST', `${SESSION}/totp/confirm`, (request) => {
        if (JSON.parse(request.bodyText).code !== '654321') {
          return envelope(null, { code: ERRORS.TOTP_CODE_INVALID.code, msg: 'Wrong code' });
        }
        step = 'ready';
        return envelope({ next: 'ready' });
      });
    const { user } = await renderConsole();

    await screen.findByRole('heading', { name: 'Choose your password' });
    await user.type(screen.getByLabelText(/^Current password/), 'OneTime1');
    await user.type(screen.getByLabelText(/^New password/), 'MyOwn1234');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await screen.findByRole('heading', { name: 'Set up a second factor', level: 1 });
    expect(screen.getByText(/^Owners confirm each sign-in with a second factor/)).toBeInTheDocument();
    // The authenticator app is the first choice; a browser without WebAuthn is offered no passkey.
    await screen.findByRole('heading', { name: 'Set up an authenticator app', level: 2 });
    expect(screen.queryByRole('tab', { name: 'Passkey' })).not.toBeInTheDocument();
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('img', { name: 'QR code of the key for an authenticator app' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Authenticator code/), '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong code');
    await user.clear(screen.getByLabelText(/^Authenticator code/));
    await user.type(screen.getByLabelText(/^Authenticator code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('navigation', { name: 'Console sections' })).toBeInTheDocument();
    expect(JSON.parse(network.to(`${SESSION}/password`)[0]!.bodyText)).toEqual({
      current: 'OneTime1',
      next: 'MyOwn1234',
    });
  });

  it('signs out, and speaks the language chosen', async () => {
    let signedIn = true;
    stubFetch()
      .on('GET', SESSION, () =>
        signedIn ? envelope(sessionOf()) : envelope(null, { code: 401, msg: 'no', status: 401 }),
      )
      .on('GET', '/api/operators', envelope({ operators: [] }))
      .on('DELETE', SESSION, () => {
        signedIn = false;
        return envelope(null);
      });
    const { user } = await renderConsole();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'zh');
    expect(await screen.findByRole('navigation', { name: '控制台栏目' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('zh-Hans');
    await user.selectOptions(screen.getByRole('combobox', { name: '语言' }), 'por');
    await user.click(await screen.findByRole('button', { name: 'Sair' }));
    expect(await screen.findByRole('heading', { name: 'Entrar no console' })).toBeInTheDocument();
  });
});

describe('passkeys as the second factor', () => {
  /** The server's sign-in: the password answers SECOND_FACTOR_REQUIRED naming `factors`; the passkey signs in. */
  function passkeyServer(factors: string[], passkeyAnswers: Array<() => Response>) {
    let signedIn = false;
    const network = stubFetch()
      .on('GET', SESSION, () =>
        signedIn ? envelope(sessionOf()) : envelope(null, { code: 401, msg: 'Sign in first', status: 401 }),
      )
      .on('POST', SESSION, () =>
        envelope({ factors }, { code: ERRORS.SECOND_FACTOR_REQUIRED.code, msg: 'Confirm with your passkey' }),
      )
      .on('POST', `${SESSION}/passkey/options`, () => envelope({ options: SIGN_IN_OPTIONS }))
      .on('POST', `${SESSION}/passkey`, () => {
        const answer = passkeyAnswers.shift()!();
        signedIn = answer.headers.get('x-signed-in') === 'yes';
        return answer;
      });
    return network;
  }
  const signedInAnswer = () => envelope({ next: 'ready' }, { headers: { 'x-signed-in': 'yes' } });

  async function typePassword(user: Awaited<ReturnType<typeof renderConsole>>['user']) {
    await screen.findByRole('heading', { name: 'Sign in to the console' });
    await user.type(screen.getByLabelText(/^Email/), 'owner@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
  }

  it('signs in with a passkey and no code; a passkey refused is said so, and a new try asks anew', async () => {
    const authenticator = fakeAuthenticator();
    const network = passkeyServer(
      ['passkey'],
      [() => envelope(null, { code: ERRORS.LOGIN_FAILED.code, msg: 'Wrong email or password' }), signedInAnswer],
    );
    const { user } = await renderConsole();
    await typePassword(user);

    const usePasskey = await screen.findByRole('button', { name: 'Use a passkey' });
    // Only a passkey: no code field, and the focus waits on the passkey's button.
    expect(screen.queryByLabelText(/^Authenticator code/)).not.toBeInTheDocument();
    expect(usePasskey).toHaveFocus();
    await user.click(usePasskey);
    expect(await screen.findByRole('alert')).toHaveTextContent('That passkey was not accepted');
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));

    expect(await screen.findByRole('navigation', { name: 'Console sections' })).toBeInTheDocument();
    // Each try takes options of its own (each challenge is taken once), and hands the browser's answer over.
    expect(network.to(`${SESSION}/passkey/options`)).toHaveLength(2);
    expect(authenticator.get).toHaveBeenCalledTimes(2);
    const sent = JSON.parse(network.to(`${SESSION}/passkey`)[1]!.bodyText);
    expect(sent).toMatchObject({
      id: CREDENTIAL_ID,
      rawId: CREDENTIAL_ID,
      type: 'public-key',
      response: { signature: expect.any(String), authenticatorData: expect.any(String) },
    });
    const { publicKey } = authenticator.get.mock.calls[0]![0];
    expect(new TextDecoder().decode(publicKey?.challenge as ArrayBuffer)).toBe('sign-in');
  });

  it('offers the code and a passkey to an operator with both; a closed prompt and an expired sign-in are explained', async () => {
    const authenticator = fakeAuthenticator();
    authenticator.get.mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    );
    passkeyServer(['totp', 'passkey'], [() => envelope(null, { code: 401, msg: 'Sign in first', status: 401 })]);
    const { user } = await renderConsole();
    await typePassword(user);

    expect(await screen.findByLabelText(/^Authenticator code/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('its prompt was closed or timed out');

    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The sign-in waited too long');
    // It starts again from the password.
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
  });

  it('lets an owner choose a passkey as the second factor they must set up', async () => {
    const authenticator = fakeAuthenticator();
    let passkeys = 0;
    const network = stubFetch()
      .on('GET', SESSION, () =>
        envelope(
          sessionOf({
            totpEnrolled: false,
            passkeys,
            secondFactorPending: passkeys === 0,
            permissions: passkeys === 0 ? [] : ['operators.manage'],
          }),
        ),
      )
      .on('POST', `${SESSION}/totp`, envelope({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x' }))
      .on('POST', `${SESSION}/passkeys/options`, envelope({ options: REGISTRATION_OPTIONS }))
      .on('POST', `${SESSION}/passkeys`, (request) => {
        passkeys = 1;
        const { name } = JSON.parse(request.bodyText);
        return envelope({ passkey: { id: 7, name, createdAt: 0, lastUsedAt: null }, next: 'ready' });
      });
    const { user } = await renderConsole();

    await screen.findByRole('heading', { name: 'Set up a second factor', level: 1 });
    await user.click(screen.getByRole('tab', { name: 'Passkey' }));
    // The authenticator app's key is no longer on screen once the other choice is made.
    expect(screen.queryByTestId('totp-secret')).not.toBeInTheDocument();
    // The browser is asked only once the passkey has a name.
    expect(await screen.findByRole('button', { name: 'Add passkey' })).toBeDisabled();
    await user.type(screen.getByLabelText(/^Name of the passkey/), 'Work laptop');
    await user.click(screen.getByRole('button', { name: 'Add passkey' }));

    expect(await screen.findByRole('navigation', { name: 'Console sections' })).toBeInTheDocument();
    const body = JSON.parse(network.to(`${SESSION}/passkeys`, 'POST')[0]!.bodyText);
    expect(body).toMatchObject({ name: 'Work laptop', response: { id: CREDENTIAL_ID, type: 'public-key' } });
    expect(body.response.response.transports).toEqual(['internal']);
    const { publicKey } = authenticator.create.mock.calls[0]![0];
    expect(publicKey?.rp).toEqual({ name: 'Mutenet', id: 'localhost' });
  });
});
