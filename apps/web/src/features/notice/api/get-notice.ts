import { getNotice } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';

/** The operator's notice in the request language: sanitised HTML, '' when there is none. */
export async function fetchNotice(): Promise<string> {
  const { body } = await callEndpoint(getNotice);
  return body.data.content;
}

export function noticeQueryOptions() {
  return queryOptions({ queryKey: ['notice'], queryFn: fetchNotice, meta: { localized: true } });
}

export function useNotice() {
  return useQuery(noticeQueryOptions());
}
