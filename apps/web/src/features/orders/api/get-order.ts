import { FINAL_ORDER_STATUSES, getOrders, type Order } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';
import { ORDERS_QUERY_KEY } from './get-orders';

/** Spec section 4: the details screen asks again every 10 seconds until the order is final. */
export const ORDER_POLL_INTERVAL_MS = 10_000;
/** Spec section 8: error toasts on the details screen last 2.5 seconds. */
export const ORDER_DETAILS_TOAST_MS = 2_500;

/** One order by its number; null when the customer has no such order. */
export async function fetchOrder(no: string): Promise<Order | null> {
  const { body } = await callEndpoint(getOrders, { query: { no }, toast: { autoClose: ORDER_DETAILS_TOAST_MS } });
  return body.data.find((order) => order.no === no) ?? null;
}

/** Polling goes on while the order can still change: not for a final status, nor for an order that is not there. */
export function keepsPolling(order: Order | null | undefined): boolean {
  if (order === null) return false;
  return order === undefined || !FINAL_ORDER_STATUSES.includes(order.status);
}

/**
 * Polled while the screen is open (the observer goes with the screen, and the polling with it), also while the tab
 * is in the background: the customer pays in the checkout's tab and comes back to a settled status.
 */
export function orderQueryOptions(no: string) {
  return queryOptions({
    queryKey: [...ORDERS_QUERY_KEY, 'detail', no],
    queryFn: () => fetchOrder(no),
    meta: { localized: true },
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => (keepsPolling(query.state.data) ? ORDER_POLL_INTERVAL_MS : false),
    refetchIntervalInBackground: true,
  });
}

export function useOrder(no: string) {
  return useQuery(orderQueryOptions(no));
}
