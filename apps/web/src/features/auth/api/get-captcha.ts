import { CAPTCHA_TTL_SECONDS, type Captcha, getCaptcha } from '@mutenet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint, HELPER_TIMEOUT_MS } from '../../../lib/api-client';

/** A captcha lives CAPTCHA_TTL_SECONDS on the server: take a new one 30 seconds before it lapses. */
const CAPTCHA_REFRESH_MS = (CAPTCHA_TTL_SECONDS - 30) * 1000;

export async function fetchCaptcha(): Promise<Captcha> {
  const { body } = await callEndpoint(getCaptcha, { timeout: HELPER_TIMEOUT_MS });
  return body.data;
}

/** Single use: never shared between screens or kept once the screen is gone. */
export function captchaQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'captcha'],
    queryFn: fetchCaptcha,
    staleTime: CAPTCHA_REFRESH_MS,
    gcTime: 0,
    refetchInterval: CAPTCHA_REFRESH_MS,
  });
}

export function useCaptcha({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...captchaQueryOptions(), enabled });
}
