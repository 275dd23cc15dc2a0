import { getNotice, getPackageStat, getPlans, login, RUNTIME_CONFIG_PATH } from '@mutenet/contract';
// With their extensions, as Vite's native config loader needs: vite.config.ts imports this file and early-calls.ts.
import type { EarlyCall } from '../lib/early-calls.ts';
import { PATHS } from '../lib/paths.ts';

/** A route module of src/app/routes that loads on demand, by its file's name. */
export type ScreenModule =
  | 'register'
  | 'forget-passwords'
  | 'show-docx'
  | 'app-layout'
  | 'dashboard'
  | 'knowledge-base'
  | 'shop'
  | 'node-status'
  | 'orders'
  | 'placeholder'
  | 'person'
  | 'shop-configure'
  | 'order-status';

const inShell = (screen: ScreenModule): readonly ScreenModule[] => ['app-layout', screen];

/**
 * The route modules loaded on demand that each path below /person/ shows, by the path's first segment: the screen's
 * own and, for the signed-in screens, the shell's around it. The router loads each module by its name here (a test
 * holds the two to each other). The build writes a page for each path that names the scripts of its modules
 * (`screens/{segment}.html`), which the server answers for that path: the browser fetches them beside the first
 * bundle, rather than once that bundle has arrived and run.
 */
export const SCREEN_MODULES: Readonly<Record<string, readonly ScreenModule[]>> = {
  [PATHS.register]: ['register'],
  [PATHS.forgetPasswords]: ['forget-passwords'],
  [PATHS.showDocx]: ['show-docx'],
  [PATHS.dashboard]: inShell('dashboard'),
  [PATHS.knowledgeBase]: inShell('knowledge-base'),
  [PATHS.shop]: inShell('shop'),
  [PATHS.nodeStatus]: inShell('node-status'),
  [PATHS.orders]: inShell('orders'),
  [PATHS.invite]: inShell('placeholder'),
  [PATHS.help]: inShell('placeholder'),
  [PATHS.flow]: inShell('placeholder'),
  [PATHS.userCentre]: inShell('person'),
  [PATHS.shopConfigure]: inShell('shop-configure'),
  [PATHS.orderStatus]: inShell('order-status'),
};

/**
 * The calls each route module's first queries make (its route's `queries` in the router; a test holds the two to each
 * other). The build writes them into the pages of the paths that show the module, for the page to send as it starts
 * (`early-calls.ts`).
 */
export const FIRST_CALLS: Readonly<Partial<Record<ScreenModule, readonly EarlyCall[]>>> = {
  // The runtime configuration and the session check.
  'app-layout': [{ method: 'GET', path: RUNTIME_CONFIG_PATH }, login],
  dashboard: [getNotice, getPackageStat],
  shop: [getPlans],
};
