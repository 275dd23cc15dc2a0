import type { Language, OperatorSession } from '@mutenet/contract';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { LocationProbe } from '../testing/render';
import { ALL_STRINGS } from './all-strings';
import { ConsoleProviders, ConsoleRoutes } from './app';
import { startConsoleI18n } from './i18n';
import { SCREENS } from './screens';

/** The console at `path` (under its base), its strings in `language`, with a fresh query cache. */
export async function renderConsole({ path = '/', language = 'en' as Language } = {}) {
  // The console finds its base in the page's address: a test file before this one in the worker (they share one
  // page) may have moved it, e.g. the panel's sign-out to /person/login.
  window.history.replaceState(null, '', '/');
  await startConsoleI18n(ALL_STRINGS, language);
  // The screens' code loaded before the render, so that a test's wait is for its data, never for a module graph that
  // a busy machine imports slowly.
  await Promise.all(SCREENS.map((screen) => screen.load()));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  const utils = render(
    <ConsoleProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <ConsoleRoutes />
        <LocationProbe />
      </MemoryRouter>
    </ConsoleProviders>,
  );
  return { ...utils, user, location: () => utils.getByTestId('location').textContent };
}

export function sessionOf(overrides: Partial<OperatorSession> = {}): OperatorSession {
  return {
    id: 1,
    email: 'owner@example.com',
    role: 'owner',
    totpEnrolled: true,
    passkeys: 0,
    mustChangePassword: false,
    secondFactorPending: false,
    permissions: ['operators.manage', 'audit.read', 'tokens.manage'],
    ...overrides,
  };
}
