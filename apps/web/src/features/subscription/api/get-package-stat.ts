import { getPackageStat, type PackageStat } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';
import { ASKED_BY_ITS_ROUTE, FRESH_WHILE_OPENING_MS } from '../../../lib/react-query';

/** Every subscription query lives under this key, so that a reset refreshes the link and the packages together. */
export const SUBSCRIPTION_QUERY_KEY = ['subscription'] as const;

/** The customer's live packages: the running one first, then the queued ones. */
export async function fetchPackageStat(): Promise<PackageStat[]> {
  const { body } = await callEndpoint(getPackageStat);
  return body.data;
}

/**
 * Plan names come in the request language (fetched again when it changes); usage moves on while the customer is
 * away, so the packages are read afresh whenever the dashboard opens (its route asks for them as it opens) or the
 * window regains focus.
 */
export function packageStatQueryOptions() {
  return queryOptions({
    queryKey: [...SUBSCRIPTION_QUERY_KEY, 'stat'],
    queryFn: fetchPackageStat,
    meta: { localized: true },
    staleTime: FRESH_WHILE_OPENING_MS,
    refetchOnWindowFocus: true,
    ...ASKED_BY_ITS_ROUTE,
  });
}

export function usePackageStat() {
  return useQuery(packageStatQueryOptions());
}
