import { CreatedOrderSchema, createOrder, ERROR_CODE, UnfinishedOrdersSchema } from '@mutenet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, callEndpoint } from '../../../lib/api-client';
import { toastMistake } from '../../../lib/notify';
import { ORDERS_QUERY_KEY } from './get-orders';

export type CreateOrderValues = { pkgId: number; currency: string; force?: boolean };

/** What placing an order came to (spec section 4, place-order flow). */
export type CreateOrderOutcome =
  /** Code 0 with an order number. */
  | { kind: 'created'; orderNo: string }
  /** Code 3: an unfinished order for the same plan, to go on with. */
  | { kind: 'unfinished'; orderNo: string }
  /** Code 4: a package is live; placing again with `force` queues the new one after it. */
  | { kind: 'packageActive' }
  /** Code 0 without an order number. */
  | { kind: 'noOrderInfo' };

export async function postCreateOrder({ pkgId, currency, force }: CreateOrderValues): Promise<CreateOrderOutcome> {
  try {
    const { body } = await callEndpoint(createOrder, {
      body: { pkgId, currency, force: force ? 1 : undefined },
      quietCodes: [ERROR_CODE.ORDER_UNFINISHED, ERROR_CODE.PACKAGE_ACTIVE],
    });
    const created = CreatedOrderSchema.safeParse(body.data);
    return created.success && created.data.orderNo
      ? { kind: 'created', orderNo: created.data.orderNo }
      : { kind: 'noOrderInfo' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === ERROR_CODE.PACKAGE_ACTIVE) return { kind: 'packageActive' };
    if (error.code === ERROR_CODE.ORDER_UNFINISHED) {
      const unfinished = UnfinishedOrdersSchema.safeParse(error.details.data);
      const orderNo = unfinished.success ? unfinished.data[0]?.no : undefined;
      if (orderNo) return { kind: 'unfinished', orderNo };
      // Code 3 without the order: nothing to go on with, only the server's message.
      toastMistake(error.message);
    }
    throw error;
  }
}

export function useCreateOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postCreateOrder,
    onSuccess: (outcome) => {
      if (outcome.kind === 'created') void queryClient.invalidateQueries({ queryKey: ORDERS_QUERY_KEY });
    },
  });
}
