import { RUNTIME_CONFIG_PATH, type RuntimeConfig, RuntimeConfigSchema } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchJson } from './api-client';
import { ASKED_BY_ITS_ROUTE } from './react-query';

/** Version, website and download links, served by the server from its environment. */
export function getRuntimeConfig(): Promise<RuntimeConfig> {
  return fetchJson(RUNTIME_CONFIG_PATH, RuntimeConfigSchema);
}

export function runtimeConfigQueryOptions() {
  return queryOptions({
    queryKey: ['runtime-config'],
    queryFn: getRuntimeConfig,
    staleTime: Number.POSITIVE_INFINITY,
    ...ASKED_BY_ITS_ROUTE,
  });
}

export function useRuntimeConfig() {
  return useQuery(runtimeConfigQueryOptions());
}
