import '@mantine/core/styles/Anchor.css';
import { Anchor, Button, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { LoginBodySchema } from '@mutenet/contract';
import { type FormEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { validate } from '../../../lib/validate';
import { useSessionCheck } from '../api/check-session';
import { useCaptcha } from '../api/get-captcha';
import { useLogin } from '../api/login';
import { CaptchaInput } from './captcha-input';
import { PasswordField } from './password-field';
import { useCaptchaFormFields } from './use-captcha-form-fields';

type Field = 'email' | 'password' | 'imgCode';

/**
 * Login (spec section 2). With a stored token it first asks the server whether the session is still
 * valid and goes straight in when it is; otherwise it shows the form with a fresh picture code.
 */
export function LoginForm({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const { checking } = useSessionCheck({ onValid: onLoggedIn });
  const captcha = useCaptcha({ enabled: !checking });
  const login = useLogin({ onSuccess: onLoggedIn });
  const { values, change, errorFor, report } = useCaptchaFormFields<Field>(
    { email: '', password: '', imgCode: '' },
    captcha,
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(LoginBodySchema, { ...values, imgId: captcha.data?.imgId ?? '' });
    if (!result.ok) {
      const field = result.error === 'ALL_REQUIRED' ? firstEmpty(values) : 'email';
      report(formRef.current, field, result.error);
      return;
    }
    login.mutate(result.data, { onError: () => void captcha.refetch() });
  };

  if (checking) {
    return (
      <Center py="xl" role="status">
        <Loader size="sm" mr="sm" />
        <Text>{t('auth.login.checkingSession')}</Text>
      </Center>
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="login-form">
      <Stack gap="md">
        <TextInput
          name="email"
          type="email"
          label={t('auth.email')}
          value={values.email}
          onChange={(event) => change('email')(event.currentTarget.value)}
          error={errorFor('email')}
          autoComplete="username"
          data-testid="email"
        />
        <PasswordField
          name="password"
          label={t('auth.password')}
          value={values.password}
          onChange={change('password')}
          error={errorFor('password')}
          autoComplete="current-password"
        />
        <CaptchaInput
          captcha={captcha}
          value={values.imgCode}
          onChange={change('imgCode')}
          error={errorFor('imgCode')}
        />
        <Button type="submit" fullWidth loading={login.isPending} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
        <Group justify="space-between" gap="xs">
          <Text size="sm">
            {t('auth.login.noAccount')}{' '}
            <Anchor component={Link} to={PATHS.register} data-testid="register-link">
              {t('auth.login.register')}
            </Anchor>
          </Text>
          <Anchor component={Link} to={PATHS.forgetPasswords} size="sm" data-testid="forgot-link">
            {t('auth.login.forgot')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

function firstEmpty(values: Record<Field, string>): Field {
  const order: Field[] = ['email', 'password', 'imgCode'];
  return order.find((field) => values[field].trim() === '') ?? 'email';
}
