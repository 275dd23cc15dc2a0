import { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { i18n } from '../i18n/i18n';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** The answer is written in the request language: fetch it again when the language changes. */
      localized?: boolean;
    };
  }
}

/**
 * How long data read afresh whenever its screen opens stays fresh: long enough that the screen, mounting once its
 * code has arrived, does not ask again for what its route asked for beside that code.
 */
export const FRESH_WHILE_OPENING_MS = 5_000;

/**
 * A query its route asks for beside the screen's code on every visit (`app/router.tsx`): the screen, mounting once its
 * code has arrived, shows a failure that call met (the api client has toasted it) rather than asking again at once
 * with a second toast.
 */
export const ASKED_BY_ITS_ROUTE = { retryOnMount: false } as const;

/**
 * Errors are shown by the api client, so queries neither retry nor refetch behind the user's back. Calls go out
 * whether or not the browser thinks it is online (rather than waiting, silently, for it to say so): one that gets no
 * answer shows the spec's "Network error" at once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        networkMode: 'always',
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}

/** Answers written in the request language are fetched again in the new one when the language changes. */
export function useRefetchLocalizedOnLanguageChange(queryClient: QueryClient): void {
  useEffect(() => {
    const refetchLocalized = () =>
      void queryClient.invalidateQueries({ predicate: (query) => query.meta?.localized === true });
    i18n.on('languageChanged', refetchLocalized);
    return () => i18n.off('languageChanged', refetchLocalized);
  }, [queryClient]);
}
