import { type Currency, getCurrencies } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client';

/** The enabled currencies, the default first. */
export async function fetchCurrencies(): Promise<Currency[]> {
  const { body } = await callEndpoint(getCurrencies);
  return body.data.currencies;
}

export function currenciesQueryOptions() {
  return queryOptions({ queryKey: ['catalog', 'currencies'], queryFn: fetchCurrencies, meta: { localized: true } });
}

export function useCurrencies() {
  return useQuery(currenciesQueryOptions());
}
