import { AUTH_HEADER, type LoginBodySchema, login } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { i18n } from '../../../i18n/i18n';
import { ApiError, callEndpoint } from '../../../lib/api-client';
import { toastError } from '../../../lib/notify';
import { SESSION_KEYS, setSessionValue, setToken } from '../../../lib/storage';

export type LoginValues = z.output<typeof LoginBodySchema>;
export type LoginResult = { user: string; token: string };

/** Signs in; the session token comes back in the `authorization` response header. */
export async function postLogin(values: LoginValues): Promise<LoginResult> {
  const { body, headers } = await callEndpoint(login, { body: values });
  const token = headers.get(AUTH_HEADER);
  if (!token) {
    const message = i18n.t('toast.invalidResponse');
    toastError(message);
    throw new ApiError('invalid', message);
  }
  return { user: body.data.user, token };
}

export function useLogin({ onSuccess }: { onSuccess?: (result: LoginResult) => void } = {}) {
  return useMutation({
    mutationFn: postLogin,
    onSuccess: (result) => {
      setToken(result.token);
      setSessionValue(SESSION_KEYS.email, result.user);
      onSuccess?.(result);
    },
  });
}
