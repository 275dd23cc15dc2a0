import { createContext, useContext } from 'react';
import type { RouteMatch } from 'react-router';

/** Keys of the UI strings that can title a screen. */
export type TitleKey =
  | `nav.${'dashboard' | 'knowledgeBase' | 'purchase' | 'nodeStatus' | 'myOrder' | 'userCentre' | 'invite' | 'help' | 'flow' | 'configure' | 'orderDetails'}`
  | 'auth.login.title'
  | 'auth.register.title'
  | 'auth.reset.title'
  | 'licence.title';

export type RouteHandle = { title?: TitleKey };

/** The routes matched by the address shown, outermost first (router.tsx provides them). */
export const RouteMatchesContext = createContext<readonly RouteMatch[]>([]);

/** The title of the deepest matched route that has one. */
export function routeTitle(matches: readonly RouteMatch[]): TitleKey | undefined {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const title = (matches[index]?.route.handle as RouteHandle | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

/** The title of the screen shown. */
export function useRouteTitle(): TitleKey | undefined {
  return routeTitle(useContext(RouteMatchesContext));
}

/** The params of the deepest match: `from` and `lang` of `/orders/:from?/:lang?`, say, also in the shell around it. */
export function useScreenParams(): Record<string, string | undefined> {
  return useContext(RouteMatchesContext).at(-1)?.params ?? {};
}
