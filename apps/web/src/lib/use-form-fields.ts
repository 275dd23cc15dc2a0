import { useCallback, useState } from 'react';
import { useFormError } from './use-form-error';

/** A form's text values and the one error it shows (`useFormError`): a change to a field clears that field's error. */
export function useFormFields<F extends string>(empty: Record<F, string>) {
  const errors = useFormError<F>();
  const [values, setValues] = useState(empty);
  const { clear } = errors;

  /** The `onChange` of a field's input, given its new text. */
  const change = useCallback(
    (field: F) => (value: string) => {
      setValues((current) => ({ ...current, [field]: value }));
      clear(field);
    },
    [clear],
  );

  return { ...errors, values, setValues, change };
}
