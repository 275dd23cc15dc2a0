import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { cssVariablesResolver, theme } from '../components/ui/theme';
import { i18n } from '../i18n/i18n';
import { useRefetchLocalizedOnLanguageChange } from '../lib/react-query';

const Toasts = lazy(() => import('./toasts'));

/** Mounts the toasts' container once there is a toast to show (the store keeps it until then): no screen pays for it before. */
function ToastsOnDemand() {
  const { notifications } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length > 0) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

/** Everything a screen needs around it: theme, toasts, translations and the query cache. */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  useRefetchLocalizedOnLanguageChange(queryClient);

  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        // Every variable is written by the provider, rather than the defaults coming from a stylesheet the first screen would load.
        deduplicateCssVariables={false}
      >
        <ToastsOnDemand />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
