import { adminGetSession, type OperatorSession } from '@mutenet/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, consoleCall } from '../api';

export const SESSION_KEY = ['console', 'session'] as const;

/** Who is signed in; `null` when nobody is (401). */
export async function fetchSession(): Promise<OperatorSession | null> {
  try {
    return await consoleCall(adminGetSession);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, retry: false, staleTime: 60_000 });
}

/** After a sign-in step, a sign-out or a 401: the session is read again and the console follows it. */
export function useReloadSession() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: SESSION_KEY }), [queryClient]);
}
