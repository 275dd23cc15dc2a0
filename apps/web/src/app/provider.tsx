import '@mantine/core/styles/Notification.css';
import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { cssVariablesResolver, theme } from '../components/ui/theme';
import { Toaster } from '../components/ui/toaster';
import { i18n } from '../i18n/i18n';
import { useRefetchLocalizedOnLanguageChange } from '../lib/react-query';

/**
 * Everything a screen needs around it: theme, toasts, translations and the query cache. The toasts come with the app,
 * not on demand: the first toast may well say that the server cannot be reached.
 */
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
        <Toaster />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
