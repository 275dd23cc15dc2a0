import { ERRORS } from '@mutenet/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../testing';

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
    expect(await screen.findByRole('heading', { name: 'Operators', level: 1 })).toBeInTheDocument();
    expect(location()).toBe('/operators');

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
    expect(screen.getByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
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

    await screen.findByRole('heading', { name: 'Set up an authenticator app' });
    expect(screen.getByText('Owners must use an authenticator app to sign in.')).toBeInTheDocument();
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
