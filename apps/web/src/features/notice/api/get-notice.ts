import { getNotice } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';
import { ASKED_BY_ITS_ROUTE } from '../../../lib/react-query';

/** The operator's notice in the request language: sanitised HTML, '' when there is none. */
export async function fetchNotice(): Promise<string> {
  const { body } = await callEndpoint(getNotice);
  return body.data.content;
}

export function noticeQueryOptions() {
  return queryOptions({ queryKey: ['notice'], queryFn: fetchNotice, meta: { localized: true }, ...ASKED_BY_ITS_ROUTE });
}

export function useNotice() {
  return useQuery(noticeQueryOptions());
}
