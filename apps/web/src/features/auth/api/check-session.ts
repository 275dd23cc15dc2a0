import { login, type SessionUser } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { callEndpoint } from '../../../lib/api-client';
import { ASKED_BY_ITS_ROUTE } from '../../../lib/react-query';
import { hasToken, SESSION_KEYS, setSessionValue } from '../../../lib/storage';

/** The login call without a body: answers with the user while the stored token is valid, HTTP 401 once it is not. */
export async function checkSession(): Promise<SessionUser> {
  const { body } = await callEndpoint(login);
  setSessionValue(SESSION_KEYS.email, body.data.user);
  return body.data;
}

/**
 * Runs the session check once, when the screen opens with a stored token. `checking` stays true
 * until the answer; on success `onValid` runs, on failure the caller shows its form.
 */
export function useSessionCheck({ onValid }: { onValid: () => void }): { checking: boolean } {
  const [checking, setChecking] = useState(hasToken);
  const started = useRef(false);
  const mounted = useRef(true);
  const onValidRef = useRef(onValid);
  onValidRef.current = onValid;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!checking || started.current) return;
    started.current = true;
    checkSession().then(
      () => {
        if (mounted.current) onValidRef.current();
      },
      () => {
        if (mounted.current) setChecking(false);
      },
    );
  }, [checking]);

  return { checking };
}

/** The signed-in user, for a tab that has the token but not yet the email (a new tab, say). */
export function sessionUserQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'session'],
    queryFn: checkSession,
    staleTime: Number.POSITIVE_INFINITY,
    ...ASKED_BY_ITS_ROUTE,
  });
}

export function useSessionUser({ enabled }: { enabled: boolean }) {
  return useQuery({ ...sessionUserQueryOptions(), enabled });
}
