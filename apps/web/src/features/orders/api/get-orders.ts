import { getOrders, type Order } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';

/** Every orders query lives under this key, so that a cancel or a new order refreshes them all. */
export const ORDERS_QUERY_KEY = ['orders'] as const;

/** The customer's orders, newest first. */
export async function fetchOrders(): Promise<Order[]> {
  const { body } = await callEndpoint(getOrders);
  return body.data;
}

/**
 * Product names come in the request language (fetched again when it changes); statuses move on in other tabs
 * (the checkout), so the list is read afresh whenever the screen opens or the window regains focus.
 */
export function ordersQueryOptions() {
  return queryOptions({
    queryKey: [...ORDERS_QUERY_KEY, 'list'],
    queryFn: fetchOrders,
    meta: { localized: true },
    staleTime: 0,
    refetchOnWindowFocus: true,
  });
}

export function useOrders() {
  return useQuery(ordersQueryOptions());
}
