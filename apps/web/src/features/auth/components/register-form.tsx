import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/VisuallyHidden.css';
import { Anchor, Button, Checkbox, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { type ErrorKey, RegisterFormSchema, USERNAME_MAX_LENGTH } from '@mutenet/contract';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../../i18n/use-language';
import { toastSuccess } from '../../../lib/notify';
import { PATHS } from '../../../lib/paths';
import { validate } from '../../../lib/validate';
import { useCaptcha } from '../api/get-captcha';
import { useRegister } from '../api/register';
import { EmailCodeFields } from './email-code-fields';
import { NewPasswordFields, newPasswordFieldOf } from './password-field';
import { useCaptchaFormFields } from './use-captcha-form-fields';
import { useEmailCodeSender } from './use-email-code-sender';

type Field = 'name' | 'email' | 'imgCode' | 'emailCode' | 'password' | 'repeatPassword' | 'inviteCode';
type Values = Record<Field, string>;

const EMPTY: Values = {
  name: '',
  email: '',
  imgCode: '',
  emailCode: '',
  password: '',
  repeatPassword: '',
  inviteCode: '',
};

const NEW_PASSWORD = ['password', 'repeatPassword'] as const;

/** Where each error of the register schema is shown. */
function fieldOf(error: ErrorKey, values: Values): Field {
  const password = newPasswordFieldOf(error, values, NEW_PASSWORD);
  if (password) return password;
  switch (error) {
    case 'USERNAME_INVALID':
      return 'name';
    case 'EMAIL_CODE_REQUIRED':
      return 'emailCode';
    case 'INVITE_CODE_INVALID':
      return 'inviteCode';
    default:
      return 'email';
  }
}

/** Registration (spec section 2): the button stays disabled until the licence agreement is accepted. */
export function RegisterForm({ onRegistered }: { onRegistered: () => void }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const formRef = useRef<HTMLFormElement>(null);
  const captcha = useCaptcha();
  const { values, change, errorFor, report } = useCaptchaFormFields<Field>(EMPTY, captcha);
  const [agreed, setAgreed] = useState(false);
  const register = useRegister({
    onSuccess: () => {
      toastSuccess(t('notice.registered'));
      onRegistered();
    },
  });
  const sender = useEmailCodeSender('register', {
    captcha,
    onInvalid: (field, key) => report(formRef.current, field, key, { withText: key !== 'PICTURE_CODE_FIRST' }),
  });

  const text = (field: Field) => ({
    name: field,
    value: values[field],
    onChange: (event: { currentTarget: HTMLInputElement }) => change(field)(event.currentTarget.value),
    error: errorFor(field),
    'data-testid': field,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!agreed) return;
    const { imgCode: _imgCode, ...form } = values;
    const result = validate(RegisterFormSchema, form);
    if (!result.ok) {
      report(formRef.current, fieldOf(result.error, values), result.error);
      return;
    }
    register.mutate(result.data);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="register-form">
      <Stack gap="md">
        <TextInput
          {...text('name')}
          label={t('auth.register.name')}
          autoComplete="username"
          maxLength={USERNAME_MAX_LENGTH}
        />
        <TextInput {...text('email')} type="email" label={t('auth.email')} autoComplete="email" />
        <EmailCodeFields captcha={captcha} sender={sender} values={values} change={change} errorFor={errorFor} />
        <NewPasswordFields
          names={NEW_PASSWORD}
          labels={[t('auth.password'), t('auth.repeatPassword')]}
          values={values}
          change={change}
          errorFor={errorFor}
        />
        <Checkbox
          name="agree"
          checked={agreed}
          onChange={(event) => setAgreed(event.currentTarget.checked)}
          data-testid="agree-terms"
          label={
            <>
              {t('auth.register.agree')}{' '}
              <Anchor
                component={Link}
                // A new tab starts with no stored language: the address carries the one on screen.
                to={`${PATHS.showDocx}?lang=${language}`}
                target="_blank"
                rel="noopener noreferrer"
                inherit
                data-testid="terms-link"
              >
                {t('auth.register.agreement')}
                <VisuallyHidden> {t('auth.register.opensNewTab')}</VisuallyHidden>
              </Anchor>
            </>
          }
        />
        <TextInput {...text('inviteCode')} label={t('auth.register.inviteCode')} autoComplete="off" />
        <Button type="submit" fullWidth disabled={!agreed} loading={register.isPending} data-testid="register-submit">
          {t('auth.register.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('auth.register.haveAccount')}{' '}
          <Anchor component={Link} to={PATHS.login} data-testid="login-link">
            {t('auth.register.login')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
