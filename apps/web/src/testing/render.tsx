import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactElement, type ReactNode, StrictMode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router';
import { cssVariablesResolver, theme } from '../components/ui/theme';
import { Toaster } from '../components/ui/toaster';
import { i18n } from '../i18n/i18n';
import { createQueryClient, useRefetchLocalizedOnLanguageChange } from '../lib/react-query';

/** Shows where the router is, for assertions on redirects. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

/** The app's providers as tests run them (no transitions), around a router of the caller's. */
export function TestAppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  useRefetchLocalizedOnLanguageChange(queryClient);
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
          <Toaster />
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </MantineProvider>
      </I18nextProvider>
    </StrictMode>
  );
}

function TestProviders({ children, path = '/' }: { children: ReactNode; path?: string }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <TestAppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        {children}
        <LocationProbe />
      </MemoryRouter>
    </TestAppProviders>
  );
}

/** Renders a screen (in StrictMode, as the app runs in development) or component with the app's providers, in a memory router at `path`. */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const user = userEvent.setup();
  const utils = render(<TestProviders path={path}>{ui}</TestProviders>);
  const location = () => utils.getByTestId('location').textContent;
  return { ...utils, user, location };
}
