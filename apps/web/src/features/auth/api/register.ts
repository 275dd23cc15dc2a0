import { type RegisterFormSchema, register } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { callEndpoint } from '../../../lib/api-client';

export type RegisterValues = z.output<typeof RegisterFormSchema>;

/** The invitation code is sent only when one was typed. */
export async function postRegister(values: RegisterValues): Promise<void> {
  await callEndpoint(register, {
    body: {
      name: values.name,
      email: values.email,
      password: values.password,
      emailCode: values.emailCode,
      inviteCode: values.inviteCode === '' ? undefined : values.inviteCode,
    },
  });
}

export function useRegister({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: postRegister, onSuccess: () => onSuccess?.() });
}
