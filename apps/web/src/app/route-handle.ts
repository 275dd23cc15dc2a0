import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { RouteMatch, RouteObject } from 'react-router';
import type { ScreenModule } from './screens';

/** Keys of the UI strings that can title a screen. */
export type TitleKey =
  | `nav.${'dashboard' | 'knowledgeBase' | 'purchase' | 'nodeStatus' | 'myOrder' | 'userCentre' | 'invite' | 'help' | 'flow' | 'configure' | 'orderDetails'}`
  | 'auth.login.title'
  | 'auth.register.title'
  | 'auth.reset.title'
  | 'licence.title';

export type RouteHandle = {
  title?: TitleKey;
  /** Starts loading the route's code (a screen loaded on demand). */
  load?: () => Promise<unknown>;
  /** The route module it loads (`SCREEN_MODULES`). */
  module?: ScreenModule;
  /** The queries the route shows first, started beside its code rather than after it. */
  queries?: readonly FirstQuery[];
};

/** Starts a query a route shows first. */
export type FirstQuery = (queryClient: QueryClient) => void;

/** The routes matched by the current location, outermost first (the router computes them once per location). */
export const RouteMatchesContext = createContext<RouteMatch<string, RouteObject>[]>([]);

export function useRouteMatches(): RouteMatch<string, RouteObject>[] {
  return useContext(RouteMatchesContext);
}

/** The title of the deepest matched route that has one. */
export function routeTitle(matches: readonly RouteMatch<string, RouteObject>[]): TitleKey | undefined {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.route.handle as RouteHandle | undefined;
    if (handle?.title) return handle.title;
  }
  return undefined;
}

/** The params of the deepest match: `from` and `lang` of `/orders/:from?/:lang?`, say. */
export function routeParams(matches: readonly RouteMatch<string, RouteObject>[]): Record<string, string | undefined> {
  return matches.at(-1)?.params ?? {};
}
