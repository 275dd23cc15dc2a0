import { CHECKOUT_COOKIE, CHECKOUT_PATH_PREFIX, type Language, REQUEST_LANGUAGE } from '@mutenet/contract';
import { getToken } from './storage';

/** As long as an unpaid order lives (30 minutes); written again each time a payment page opens. */
export const CHECKOUT_COOKIE_MAX_AGE_SECONDS = 30 * 60;

/** The hosted checkout of an order, `/shopDetails/{en|pt-BR|zh-Hans}/{orderNo}` (outside the panel's /person/ base). */
export function checkoutUrl(orderNo: string, language: Language): string {
  return `${CHECKOUT_PATH_PREFIX}/${REQUEST_LANGUAGE[language]}/${encodeURIComponent(orderNo)}`;
}

/**
 * The cookie that lets the checkout page act for the customer: only under /shopDetails (so no `/mutenet/` call
 * ever carries it), short-lived, same-site only, and `Secure` under HTTPS.
 */
export function checkoutCookie(token: string, secure: boolean): string {
  const attributes = [
    `${CHECKOUT_COOKIE}=${encodeURIComponent(token)}`,
    `path=${CHECKOUT_PATH_PREFIX}`,
    `max-age=${CHECKOUT_COOKIE_MAX_AGE_SECONDS}`,
    'SameSite=Strict',
  ];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

/**
 * Hands the session to the checkout page (the cookie) and opens it in a new tab. False when the browser blocked
 * the new tab: the order details screen offers the payment page again.
 */
export function openCheckout(orderNo: string, language: Language): boolean {
  const token = getToken();
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the panel serves
  if (token) document.cookie = checkoutCookie(token, window.location.protocol === 'https:');
  return window.open(checkoutUrl(orderNo, language), '_blank') !== null;
}
