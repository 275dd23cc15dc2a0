import { cancelOrder } from '@mutenet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { callEndpoint } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/notify';
import { ORDERS_QUERY_KEY } from './get-orders';

/** Closes a waiting order; the server refuses any other status. */
export async function putCancelOrder(no: string): Promise<void> {
  await callEndpoint(cancelOrder, { query: { no } });
}

export function useCancelOrder({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putCancelOrder,
    onSuccess: async () => {
      toastSuccess(i18n.t('notice.cancelSuccess'));
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: ORDERS_QUERY_KEY });
    },
  });
}
