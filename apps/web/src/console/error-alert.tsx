import { Alert } from '@mantine/core';
import { ApiError } from './api';
import { useText } from './i18n';
import { consoleStrings } from './strings';

/** A failed call, as the operator reads it: the server's message, or why there was none. */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useText(consoleStrings);
  if (!error) return null;
  const message =
    error instanceof ApiError && (error.kind === 'business' || error.kind === 'http')
      ? error.message
      : error instanceof ApiError && error.kind === 'invalid'
        ? t('invalidAnswer')
        : t('networkError');
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}
