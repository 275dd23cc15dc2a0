import { type ResetPasswordFormSchema, resetPassword } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { callEndpoint } from '../../../lib/api-client';

export type ResetPasswordValues = z.output<typeof ResetPasswordFormSchema>;

export async function postResetPassword(values: ResetPasswordValues): Promise<void> {
  await callEndpoint(resetPassword, {
    body: { email: values.email, newPwd: values.newPwd, emailCode: values.emailCode },
  });
}

export function useResetPassword({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: postResetPassword, onSuccess: () => onSuccess?.() });
}
