import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { type ErrorKey, ResetPasswordFormSchema } from '@mutenet/contract';
import { type FormEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toastSuccess } from '../../../lib/notify';
import { PATHS } from '../../../lib/paths';
import { validate } from '../../../lib/validate';
import { useCaptcha } from '../api/get-captcha';
import { useResetPassword } from '../api/reset-password';
import { EmailCodeFields } from './email-code-fields';
import { NewPasswordFields, newPasswordFieldOf } from './password-field';
import { useCaptchaFormFields } from './use-captcha-form-fields';
import { useEmailCodeSender } from './use-email-code-sender';

type Field = 'email' | 'imgCode' | 'emailCode' | 'newPwd' | 'repeatPwd';
type Values = Record<Field, string>;

const EMPTY: Values = { email: '', imgCode: '', emailCode: '', newPwd: '', repeatPwd: '' };

const NEW_PASSWORD = ['newPwd', 'repeatPwd'] as const;

/** Where each error of the reset schema is shown (the schema checks in the order of spec section 5). */
function fieldOf(error: ErrorKey, values: Values): Field {
  return newPasswordFieldOf(error, values, NEW_PASSWORD) ?? (error === 'EMAIL_CODE_REQUIRED' ? 'emailCode' : 'email');
}

/** Forgotten password: email, picture code, email code and the new password twice. */
export function ResetPasswordForm({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const captcha = useCaptcha();
  const { values, change, errorFor, report } = useCaptchaFormFields<Field>(EMPTY, captcha);
  const reset = useResetPassword({
    onSuccess: () => {
      toastSuccess(t('notice.passwordReset'));
      onReset();
    },
  });
  const sender = useEmailCodeSender('reset_password', {
    captcha,
    onInvalid: (field, key) => report(formRef.current, field, key, { withText: key !== 'PICTURE_CODE_FIRST' }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { imgCode: _imgCode, ...form } = values;
    const result = validate(ResetPasswordFormSchema, form);
    if (!result.ok) {
      report(formRef.current, fieldOf(result.error, values), result.error);
      return;
    }
    reset.mutate(result.data);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="reset-password-form">
      <Stack gap="md">
        <TextInput
          name="email"
          type="email"
          label={t('auth.email')}
          value={values.email}
          onChange={(event) => change('email')(event.currentTarget.value)}
          error={errorFor('email')}
          autoComplete="email"
          data-testid="email"
        />
        <EmailCodeFields captcha={captcha} sender={sender} values={values} change={change} errorFor={errorFor} />
        <NewPasswordFields
          names={NEW_PASSWORD}
          labels={[t('auth.reset.newPassword'), t('auth.reset.repeatNewPassword')]}
          values={values}
          change={change}
          errorFor={errorFor}
        />
        <Button type="submit" fullWidth loading={reset.isPending} data-testid="reset-submit">
          {t('auth.reset.submit')}
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to={PATHS.login} data-testid="login-link">
            {t('auth.backToLogin')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
