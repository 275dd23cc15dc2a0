import { resetSubscribeUrl } from '@mutenet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/notify';
import { SUBSCRIPTION_QUERY_KEY } from './get-package-stat';

/** A new link (the old one stops at once) and a new proxy credential; resolves with the server's message. */
export async function putResetSubscribeUrl(): Promise<string> {
  const { body } = await callEndpoint(resetSubscribeUrl);
  return body.msg;
}

/** Shows the server's message on success (spec section 8) and forgets the old link wherever it was cached. */
export function useResetSubscribeUrl({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putResetSubscribeUrl,
    onSuccess: async (message) => {
      toastSuccess(message);
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
    },
  });
}
