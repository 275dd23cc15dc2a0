import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useRouteTitle } from '../route-handle';
import { useFocusOnNavigation } from '../use-focus-on-navigation';

/** The root of every route: the document title, and the focus after a navigation. */
export function RootRoute() {
  const location = useLocation();
  const { t } = useTranslation();
  const titleKey = useRouteTitle();

  useEffect(() => {
    document.title = titleKey ? `${t(titleKey)} · ${t('app.name')}` : t('app.name');
  }, [titleKey, t]);
  useFocusOnNavigation(location.pathname);

  return <Outlet />;
}
