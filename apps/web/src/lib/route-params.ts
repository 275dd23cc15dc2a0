import { parseLanguage } from '../i18n/i18n';

export const MOBILE_FROM = 'mobile';

/**
 * The mobile flag and the language a URL asks for: as the query (`?from=mobile&lang=en`) or as the
 * optional path segments of the dashboard, shop, node status and orders (`/orders/mobile/en`).
 */
export function urlOptions(search: string, params: Record<string, string | undefined>) {
  const query = new URLSearchParams(search);
  const from = query.get('from') ?? params.from;
  // `/pannel/en` has no `from`: a language in its place is taken as the language.
  const fromAsLanguage = from === MOBILE_FROM ? undefined : parseLanguage(from);
  return {
    mobile: from === MOBILE_FROM,
    language: parseLanguage(query.get('lang')) ?? parseLanguage(params.lang) ?? fromAsLanguage,
  };
}
