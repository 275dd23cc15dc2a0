import { Button, Stack } from '@mantine/core';
import { ChangePasswordFormSchema, type ErrorKey } from '@mutenet/contract';
import { type FormEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toastSuccess } from '../../../lib/notify';
import { useFormFields } from '../../../lib/use-form-fields';
import { validate } from '../../../lib/validate';
import { useChangePassword } from '../api/change-password';
import { NewPasswordFields, newPasswordFieldOf, PasswordField } from './password-field';

type Field = 'oldPwd' | 'newPwd' | 'repeatPwd';
type Values = Record<Field, string>;

const NEW_PASSWORD = ['newPwd', 'repeatPwd'] as const;

/** Where each error of the change schema is shown: the old password is checked by the server only. */
function fieldOf(error: ErrorKey, values: Values): Field {
  return newPasswordFieldOf(error, values, NEW_PASSWORD) ?? 'newPwd';
}

/**
 * Change password (user centre). The old password is checked by the server only. Success ends every
 * session, this one included: `onChanged` takes the user to the login screen.
 */
export function ChangePasswordForm({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const { values, change, errorFor, report } = useFormFields<Field>({ oldPwd: '', newPwd: '', repeatPwd: '' });
  const changePassword = useChangePassword({
    onSuccess: () => {
      toastSuccess(t('notice.passwordChanged'));
      onChanged();
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(ChangePasswordFormSchema, values);
    if (!result.ok) {
      report(formRef.current, fieldOf(result.error, values), result.error);
      return;
    }
    changePassword.mutate(result.data);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="change-password-form">
      <Stack gap="md" maw={420}>
        <PasswordField
          name="oldPwd"
          label={t('auth.change.oldPassword')}
          value={values.oldPwd}
          onChange={change('oldPwd')}
          error={errorFor('oldPwd')}
          autoComplete="current-password"
        />
        <NewPasswordFields
          names={NEW_PASSWORD}
          labels={[t('auth.change.newPassword'), t('auth.change.repeatNewPassword')]}
          values={values}
          change={change}
          errorFor={errorFor}
        />
        <Button type="submit" loading={changePassword.isPending} data-testid="change-password-submit">
          {t('auth.change.submit')}
        </Button>
      </Stack>
    </form>
  );
}
