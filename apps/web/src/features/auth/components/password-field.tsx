import '@mantine/core/styles/PasswordInput.css';
import { PasswordInput } from '@mantine/core';
import { type ErrorKey, isPasswordFormat, PASSWORD_MAX_LENGTH } from '@mutenet/contract';
import { useTranslation } from 'react-i18next';

type PasswordFieldProps = {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | boolean | undefined;
  autoComplete: 'current-password' | 'new-password';
  /** Shows the password rule under the field until the value meets it (spec section 5). */
  withHint?: boolean;
};

export function PasswordField({
  name,
  label,
  value,
  onChange,
  error,
  autoComplete,
  withHint = false,
}: PasswordFieldProps) {
  const { t } = useTranslation();
  const showHint = withHint && !isPasswordFormat(value);
  return (
    <PasswordInput
      name={name}
      label={label}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      // Mantine's PasswordInput does not mark its inner input invalid by itself.
      aria-invalid={error ? true : undefined}
      autoComplete={autoComplete}
      maxLength={withHint ? PASSWORD_MAX_LENGTH : undefined}
      description={showHint ? t('auth.passwordHint') : undefined}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
      visibilityToggleFocusable
      data-testid={name}
    />
  );
}

/**
 * A new password and its repetition, each with the password rule under it until met: what register, reset and
 * change ask for, under each screen's own field names and labels.
 */
export function NewPasswordFields<F extends string>({
  names: [first, repeat],
  labels: [firstLabel, repeatLabel],
  values,
  change,
  errorFor,
}: {
  names: readonly [F, F];
  labels: readonly [string, string];
  values: Record<F, string>;
  change: (field: F) => (value: string) => void;
  errorFor: (field: F) => string | boolean | undefined;
}) {
  const field = (name: F, label: string) => (
    <PasswordField
      name={name}
      label={label}
      value={values[name]}
      onChange={change(name)}
      error={errorFor(name)}
      autoComplete="new-password"
      withHint
    />
  );
  return (
    <>
      {field(first, firstLabel)}
      {field(repeat, repeatLabel)}
    </>
  );
}

/**
 * Where an error about a new password and its repetition is shown: a blank one on the field left empty, a mismatch on
 * the repetition, a format on the password; undefined for an error about another field.
 */
export function newPasswordFieldOf<F extends string>(
  error: ErrorKey,
  values: Record<F, string>,
  [first, repeat]: readonly [F, F],
): F | undefined {
  switch (error) {
    case 'PASSWORD_BLANK':
      return values[first] === '' ? first : repeat;
    case 'PASSWORD_DIFFERENT':
    case 'NEW_PASSWORD_DIFFERENT':
      return repeat;
    case 'PASSWORD_FORMAT':
      return first;
    default:
      return undefined;
  }
}
