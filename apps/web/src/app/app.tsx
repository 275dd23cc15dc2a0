import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { BrowserRouter } from 'react-router';
import { AppProvider } from './provider';
import { AppRoutes, ROUTER_BASENAME } from './router';

export function App({ queryClient, routes }: { queryClient: QueryClient; routes: RouteObject[] }) {
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter basename={ROUTER_BASENAME}>
        <AppRoutes routes={routes} />
      </BrowserRouter>
    </AppProvider>
  );
}
