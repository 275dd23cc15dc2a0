import { getNodes, type Node } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';

export async function fetchNodes(): Promise<Node[]> {
  const { body } = await callEndpoint(getNodes);
  return body.data;
}

/** Names come in the request language; statuses change, so the list is read afresh whenever the screen opens. */
export function nodesQueryOptions() {
  return queryOptions({
    queryKey: ['nodes'],
    queryFn: fetchNodes,
    meta: { localized: true },
    staleTime: 0,
    refetchOnWindowFocus: true,
  });
}

export function useNodes() {
  return useQuery(nodesQueryOptions());
}
