import { logout } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';
import { clearStorage } from '../../../lib/storage';

/** Revokes the token on the server. */
export async function postLogout(): Promise<void> {
  await callEndpoint(logout);
}

/** Signs out here whatever the server answers: storage is cleared once the call ends. */
export function useLogout({ onSettled }: { onSettled?: () => void } = {}) {
  return useMutation({
    mutationFn: postLogout,
    onSettled: () => {
      clearStorage();
      onSettled?.();
    },
  });
}
