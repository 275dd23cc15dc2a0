import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useRouteTitle } from '../route-handle';
import { ScreenBoundary } from '../screen-boundary';
import { useFocusOnNavigation } from '../use-focus-on-navigation';

/** The brand of index.html, until the first screen's code has arrived. */
const BOOT = <p className="boot-brand">Mutenet</p>;

/** The root of every route: the document title, the focus after a navigation, and a screen that cannot load. */
export function RootRoute() {
  const location = useLocation();
  const { t } = useTranslation();
  const titleKey = useRouteTitle();

  useEffect(() => {
    document.title = titleKey ? `${t(titleKey)} · ${t('app.name')}` : t('app.name');
  }, [titleKey, t]);
  useFocusOnNavigation(location.pathname);

  return (
    <ScreenBoundary address={location.pathname} fallback={BOOT} standalone>
      <Outlet />
    </ScreenBoundary>
  );
}
