import { useCallback, useDeferredValue, useMemo } from 'react';
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
import { useRouteTitle, useScreenParams } from '../route-handle';
import { ScreenBoundary } from '../screen-boundary';

/** The signed-in screens inside the shell; composes the shell with sign-out and the session's email. */
export default function AppLayoutRoute() {
  const { t } = useTranslation();
  const location = useLocation();
  const params = useScreenParams();
  const navigate = useNavigate();
  const config = useRuntimeConfig();
  const storedEmail = getSessionValue(SESSION_KEYS.email);
  // Once each time the app opens (a reload too): a token revoked elsewhere, by a password change on another device
  // say, sends the customer to the login screen. Not once signed out: storage is cleared before the login screen.
  const session = useSessionUser({ enabled: hasToken() });
  const { mutate: logout, isPending: signingOut } = useLogout({
    onSettled: () => void navigate(PATHS.login, { replace: true }),
  });
  const titleKey = useRouteTitle();
  // What the session check and the configuration bring reaches the shell in a background render: their answers
  // render this component again at once, and the shell (unchanged until then) is left alone.
  const email = useDeferredValue(storedEmail ?? session.data?.user ?? '');
  const version = useDeferredValue(config.data?.version);
  const websiteUrl = useDeferredValue(config.data?.websiteUrl);
  // A screen that cannot load says so inside the shell, which stays. One element per address, so that the shell
  // renders again only when its props change.
  const screen = useMemo(
    () => (
      <ScreenBoundary address={location.pathname} fallback={<ScreenLoader />}>
        <Outlet />
      </ScreenBoundary>
    ),
    [location.pathname],
  );
  const onUserCentre = useCallback(() => void navigate(PATHS.userCentre), [navigate]);
  const onSignOut = useCallback(() => {
    if (!signingOut) logout();
  }, [signingOut, logout]);

  return (
    <ShellLayout
      title={titleKey ? t(titleKey) : ''}
      bare={urlOptions(location.search, params).mobile}
      active={resolveActiveEntry(location.pathname)}
      email={email}
      version={version}
      websiteUrl={websiteUrl}
      onUserCentre={onUserCentre}
      onSignOut={onSignOut}
    >
      {screen}
    </ShellLayout>
  );
}
