import { Button, Container, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { adminSignIn, ERRORS, type SecondFactor, SecondFactorRequiredSchema } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, consoleCall } from '../api';
import { ErrorAlert } from '../error-alert';
import { useText } from '../i18n';
import { consoleStrings } from '../strings';
import { sessionStrings } from './i18n';
import { PasskeyErrorAlert, passkeysSupported, signInWithPasskey } from './passkey';
import { useReloadSession } from './use-session';

/**
 * Email and password; then, when the server asks for a second factor (SECOND_FACTOR_REQUIRED), the ones the operator
 * has: the authenticator app's code, and a passkey.
 */
export function SignInScreen() {
  const { t } = useText(consoleStrings);
  const text = useText(sessionStrings);
  const reload = useReloadSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [factors, setFactors] = useState<readonly SecondFactor[]>([]);
  const askCode = factors.includes('totp');
  const passkey = useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: () => reload(),
    // The password's sign-in waited too long (401): it starts again from the password.
    onError: (error) => error instanceof ApiError && error.status === 401 && setFactors([]),
  });
  const signIn = useMutation({
    mutationFn: () => consoleCall(adminSignIn, { body: { email, password, ...(askCode ? { code } : {}) } }),
    onSuccess: () => reload(),
    onError: (error) => {
      if (!(error instanceof ApiError) || error.code !== ERRORS.SECOND_FACTOR_REQUIRED.code) return;
      // The answer names the factors the operator has; an answer without them asks for the code.
      const required = SecondFactorRequiredSchema.safeParse(error.details.data);
      setFactors(required.success ? required.data.factors : ['totp']);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    passkey.reset();
    signIn.mutate();
  };
  const offerPasskey = factors.includes('passkey') && passkeysSupported();
  return (
    <Container size={420} py="xl" component="main">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1}>{t('signInTitle')}</Title>
          {passkey.error ? <PasskeyErrorAlert error={passkey.error} /> : <ErrorAlert error={signIn.error} />}
          <TextInput
            label={t('email')}
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <PasswordInput
            label={t('password')}
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {askCode && (
            <TextInput
              label={t('code')}
              description={t('codeHint')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              // The field appears once the password was right: the operator goes on typing there.
              data-autofocus
              autoFocus
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
          )}
          <Button type="submit" loading={signIn.isPending} variant={offerPasskey && !askCode ? 'default' : 'filled'}>
            {t('signIn')}
          </Button>
          {offerPasskey && (
            <Button
              variant={askCode ? 'default' : 'filled'}
              loading={passkey.isPending}
              onClick={() => passkey.mutate()}
              // The only way on once the password was right: the operator goes on from there.
              autoFocus={!askCode}
            >
              {text.t('usePasskey')}
            </Button>
          )}
        </Stack>
      </form>
    </Container>
  );
}
