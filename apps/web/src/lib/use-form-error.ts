import type { ErrorKey } from '@mutenet/contract';
import { useCallback, useState } from 'react';
import { useMessage } from '../i18n/use-language';

type FieldError<F extends string> = { field: F; key: ErrorKey; withText: boolean };

/**
 * The one validation error a form shows at a time (the contract reports the first failing rule),
 * attached to a field so that it is announced with it (`aria-invalid`, `aria-describedby`).
 */
export function useFormError<F extends string>() {
  const [error, setError] = useState<FieldError<F> | null>(null);
  const message = useMessage();

  /** The `error` prop of a field: the message, `true` to only mark it invalid, or nothing. */
  const errorFor = useCallback(
    (field: F): string | boolean | undefined => {
      if (error?.field !== field) return undefined;
      return error.withText ? message(error.key) : true;
    },
    [error, message],
  );

  /** Shows the error on the field and moves the focus there. `withText: false` when the text is already on screen. */
  const report = useCallback(
    (form: HTMLFormElement | null, field: F, key: ErrorKey, { withText = true }: { withText?: boolean } = {}) => {
      setError({ field, key, withText });
      const element = form?.elements.namedItem(field);
      if (element instanceof HTMLElement) element.focus();
    },
    [],
  );

  const clear = useCallback((field?: F) => {
    setError((current) => (field === undefined || current?.field === field ? null : current));
  }, []);

  return { error, errorFor, report, clear };
}
