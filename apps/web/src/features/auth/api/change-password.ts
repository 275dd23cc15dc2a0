import { type ChangePasswordFormSchema, changePassword } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { callEndpoint } from '../../../lib/api-client';
import { clearStorage } from '../../../lib/storage';

export type ChangePasswordValues = z.output<typeof ChangePasswordFormSchema>;

export async function postChangePassword(values: ChangePasswordValues): Promise<void> {
  await callEndpoint(changePassword, { body: { oldPwd: values.oldPwd, newPwd: values.newPwd } });
}

/** Success revokes every session, this one included, so the panel signs out here too. */
export function useChangePassword({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({
    mutationFn: postChangePassword,
    onSuccess: () => {
      clearStorage();
      onSuccess?.();
    },
  });
}
