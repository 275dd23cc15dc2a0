import { Center, Loader, MantineProvider, Stack, Title } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { cssVariablesResolver, theme } from '../components/ui/theme';
import { setSignedOutHandler } from './api';
import { consoleBasePath } from './base-path';
import { ErrorAlert } from './error-alert';
import { consoleI18n, useText } from './i18n';
import { type ConsoleScreen, screensFor } from './screens';
import { ChangePasswordScreen } from './session/change-password-screen';
import { EnrolSecondFactor } from './session/enrol-second-factor';
import { EnrolTotp } from './session/enrol-totp';
import { SignInScreen } from './session/sign-in-screen';
import { SESSION_KEY, useSession } from './session/use-session';
import { ConsoleShell } from './shell/console-shell';
import { consoleStrings } from './strings';

function Loading() {
  const { t } = useText(consoleStrings);
  return (
    <Center py="xl">
      <Loader aria-label={t('loading')} />
    </Center>
  );
}

function NotFound() {
  const { t } = useText(consoleStrings);
  return <Title order={1}>{t('notFound')}</Title>;
}

/** Each section's component, loaded the first time it opens. */
const lazyScreens = new Map<ConsoleScreen, ReturnType<typeof lazy>>();
function screenComponent(screen: ConsoleScreen) {
  let component = lazyScreens.get(screen);
  if (!component) {
    component = lazy(screen.load);
    lazyScreens.set(screen, component);
  }
  return component;
}

/** What the session allows: sign in, change the one-time password, enrol a second factor, or the console. */
export function ConsoleRoutes() {
  const session = useSession();
  const screens = useMemo(() => screensFor(session.data?.permissions ?? []), [session.data]);
  if (session.isPending) return <Loading />;
  if (session.isError) {
    return (
      <Stack component="main" p="md">
        <ErrorAlert error={session.error} />
      </Stack>
    );
  }
  if (!session.data) return <SignInScreen />;
  if (session.data.mustChangePassword) return <ChangePasswordScreen />;
  if (session.data.secondFactorPending) return <EnrolSecondFactor />;
  // The Security screen is every operator's own, so every session has a first screen to open.
  const first = screens[0];
  return (
    <ConsoleShell session={session.data} screens={screens}>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route index element={first && <Navigate to={`/${first.path}`} replace />} />
          {screens.map((screen) => {
            const Screen = screenComponent(screen);
            return <Route key={screen.path} path={`${screen.path}/*`} element={<Screen />} />;
          })}
          <Route path="account/totp" element={<EnrolTotp />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
    </ConsoleShell>
  );
}

/** The providers around the console: translations, Mantine, TanStack Query; a 401 anywhere re-reads the session. */
export function ConsoleProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  useEffect(() => {
    setSignedOutHandler(() => queryClient.setQueryData(SESSION_KEY, null));
  }, [queryClient]);
  return (
    <I18nextProvider i18n={consoleI18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}

export function ConsoleApp({ queryClient }: { queryClient: QueryClient }) {
  return (
    <ConsoleProviders queryClient={queryClient}>
      <BrowserRouter basename={consoleBasePath() || '/'}>
        <ConsoleRoutes />
      </BrowserRouter>
    </ConsoleProviders>
  );
}
