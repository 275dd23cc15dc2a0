import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { resolveActiveEntry } from '../../components/shell/menu';
import { ShellLayout } from '../../components/shell/shell-layout';
import { ScreenLoader } from '../../components/ui/screen-loader';
import { useSessionUser } from '../../features/auth/api/check-session';
import { useLogout } from '../../features/auth/api/logout';
import { PATHS } from '../../lib/paths';
import { urlOptions } from '../../lib/route-params';
import { useRuntimeConfig } from '../../lib/runtime-config';
import { getSessionValue, hasToken, SESSION_KEYS } from '../../lib/storage';
import { routeParams, routeTitle, useRouteMatches } from '../route-handle';

/** The signed-in screens inside the shell; composes the shell with sign-out and the session's email. */
export default function AppLayoutRoute() {
  const { t } = useTranslation();
  const location = useLocation();
  const matches = useRouteMatches();
  const navigate = useNavigate();
  const config = useRuntimeConfig();
  const storedEmail = getSessionValue(SESSION_KEYS.email);
  // Once each time the app opens (a reload too): a token revoked elsewhere, by a password change on another device
  // say, sends the customer to the login screen. Not once signed out: storage is cleared before the login screen.
  const session = useSessionUser({ enabled: hasToken() });
  const logout = useLogout({ onSettled: () => void navigate(PATHS.login, { replace: true }) });
  const titleKey = routeTitle(matches);

  return (
    <ShellLayout
      title={titleKey ? t(titleKey) : ''}
      bare={urlOptions(location.search, routeParams(matches)).mobile}
      active={resolveActiveEntry(location.pathname)}
      email={storedEmail ?? session.data?.user ?? ''}
      version={config.data?.version}
      websiteUrl={config.data?.websiteUrl}
      onUserCentre={() => void navigate(PATHS.userCentre)}
      onSignOut={() => {
        if (!logout.isPending) logout.mutate();
      }}
    >
      <Suspense fallback={<ScreenLoader />}>
        <Outlet />
      </Suspense>
    </ShellLayout>
  );
}
