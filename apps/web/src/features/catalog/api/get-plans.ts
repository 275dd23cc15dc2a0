import { getPlans, type Plans } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';
import { ASKED_BY_ITS_ROUTE } from '../../../lib/react-query';

export async function fetchPlans(): Promise<Plans> {
  const { body } = await callEndpoint(getPlans);
  return body.data;
}

/** Names and descriptions come in the request language: fetched again when it changes. */
export function plansQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'plans'],
    queryFn: fetchPlans,
    meta: { localized: true },
    ...ASKED_BY_ITS_ROUTE,
  });
}

export function usePlans() {
  return useQuery(plansQueryOptions());
}
