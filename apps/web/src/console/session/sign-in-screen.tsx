import { Button, Container, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { adminSignIn, ERRORS, SecondFactorRequiredSchema } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, consoleCall } from '../api';
import { ErrorAlert } from '../error-alert';
import { useText } from '../i18n';
import { consoleStrings } from '../strings';
import { useReloadSession } from './use-session';

/**
 * Email and password; then, when the server asks for it (SECOND_FACTOR_REQUIRED) and the operator has an
 * authenticator app, its code.
 */
export function SignInScreen() {
  const { t } = useText(consoleStrings);
  const reload = useReloadSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const signIn = useMutation({
    mutationFn: () => consoleCall(adminSignIn, { body: { email, password, ...(askCode ? { code } : {}) } }),
    onSuccess: () => reload(),
    onError: (error) => {
      if (!(error instanceof ApiError) || error.code !== ERRORS.SECOND_FACTOR_REQUIRED.code) return;
      // The answer names the factors the operator has: the code field is for an authenticator app.
      const required = SecondFactorRequiredSchema.safeParse(error.details.data);
      if (!required.success || required.data.factors.includes('totp')) setAskCode(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <Container size={420} py="xl" component="main">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1}>{t('signInTitle')}</Title>
          <ErrorAlert error={signIn.error} />
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
          <Button type="submit" loading={signIn.isPending}>
            {t('signIn')}
          </Button>
        </Stack>
      </form>
    </Container>
  );
}
