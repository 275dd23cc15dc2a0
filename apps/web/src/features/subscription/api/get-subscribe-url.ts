import { getSubscribeUrl } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callTextEndpoint } from '../../../lib/api-client';
import { SUBSCRIPTION_QUERY_KEY } from './get-package-stat';

/** The subscription link: the whole body of the answer, as text. */
export async function fetchSubscribeUrl(): Promise<string> {
  const { body } = await callTextEndpoint(getSubscribeUrl);
  return body;
}

/** The link changes only when the customer resets it, which refreshes this query. */
export function subscribeUrlQueryOptions() {
  return queryOptions({ queryKey: [...SUBSCRIPTION_QUERY_KEY, 'url'], queryFn: fetchSubscribeUrl });
}

export function useSubscribeUrl({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...subscribeUrlQueryOptions(), enabled });
}
