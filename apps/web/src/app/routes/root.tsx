import type { Language } from '@mutenet/contract';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ScreenLoader } from '../../components/ui/screen-loader';
import { currentLanguage, setLanguage } from '../../i18n/i18n';
import { isPublicPath, PATHS } from '../../lib/paths';
import { urlOptions } from '../../lib/route-params';
import { hasToken } from '../../lib/storage';
import { routeParams, routeTitle, useRouteMatches } from '../route-handle';
import { useFocusOnNavigation } from '../use-focus-on-navigation';

/** Outside the public paths a stored token is required (spec section 2). */
export function mayShow(pathname: string): boolean {
  return isPublicPath(pathname) || hasToken();
}

/**
 * The root of every route: the guard (spec section 2: outside the public paths a stored token is
 * required), the language a URL asks for (`lang`), the document title, and the focus after a navigation.
 */
export function RootRoute() {
  const location = useLocation();
  const matches = useRouteMatches();
  const { t } = useTranslation();
  const { language } = urlOptions(location.search, routeParams(matches));
  const titleKey = routeTitle(matches);

  // The language a URL asks for is applied once per URL language (a language the customer picks afterwards stays),
  // and the screen waits for it rather than showing first in the language before.
  const [applied, setApplied] = useState<Language | undefined>(undefined);
  const switching = language !== undefined && language !== applied && language !== currentLanguage();
  useEffect(() => {
    if (!language || language === applied) return;
    if (language === currentLanguage()) setApplied(language);
    else void setLanguage(language).finally(() => setApplied(language));
  }, [language, applied]);

  useEffect(() => {
    document.title = titleKey ? `${t(titleKey)} · ${t('app.name')}` : t('app.name');
  }, [titleKey, t]);
  useFocusOnNavigation(location.pathname);

  if (!mayShow(location.pathname)) {
    return <Navigate to={PATHS.login} replace />;
  }

  if (switching) return <ScreenLoader />;

  return (
    <Suspense fallback={<ScreenLoader />}>
      <Outlet />
    </Suspense>
  );
}
