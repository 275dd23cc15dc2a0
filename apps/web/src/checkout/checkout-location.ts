import { CHECKOUT_COOKIE, CHECKOUT_PATH_PREFIX, REQUEST_LANGUAGES, type RequestLanguage } from '@mutenet/contract';

export type CheckoutTarget = { language: RequestLanguage; orderNo: string | null };

function asRequestLanguage(value: string | undefined): RequestLanguage | undefined {
  const lower = value?.toLowerCase();
  return REQUEST_LANGUAGES.find((language) => language.toLowerCase() === lower);
}

/**
 * `/shopDetails/{en|pt-BR|zh-Hans}/{orderNo}`: the language (English when it is not one of the three) and the
 * order number (null when the path has none).
 */
export function parseCheckoutPath(pathname: string): CheckoutTarget {
  const prefix = `${CHECKOUT_PATH_PREFIX}/`;
  const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : '';
  const [lang, orderNo, ...extra] = rest.split('/').filter(Boolean);
  let decoded: string | null = null;
  try {
    decoded = orderNo && extra.length === 0 ? decodeURIComponent(orderNo) : null;
  } catch {
    decoded = null;
  }
  return { language: asRequestLanguage(lang) ?? 'en', orderNo: decoded };
}

/** The session token the panel left in the checkout cookie, if any. */
export function readCheckoutToken(cookie: string): string | null {
  for (const part of cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== CHECKOUT_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('=')) || null;
    } catch {
      return null;
    }
  }
  return null;
}
