import { type EmailCodeAction, type SendEmailCodeBodySchema, sendEmailCode } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { callEndpoint, HELPER_TIMEOUT_MS } from '../../../lib/api-client';

export type SendEmailCodeValues = z.output<typeof SendEmailCodeBodySchema>;

export async function postEmailCode(action: EmailCodeAction, values: SendEmailCodeValues): Promise<void> {
  await callEndpoint(sendEmailCode, { query: { action }, body: values, timeout: HELPER_TIMEOUT_MS });
}

export function useSendEmailCode(
  action: EmailCodeAction,
  { onSuccess, onError }: { onSuccess?: () => void; onError?: () => void } = {},
) {
  return useMutation({
    mutationFn: (values: SendEmailCodeValues) => postEmailCode(action, values),
    onSuccess: () => onSuccess?.(),
    onError: () => onError?.(),
  });
}
