import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  Navigate,
  type Params,
  type RouteObject,
  redirect,
} from 'react-router';
import { sessionUserQueryOptions } from '../features/auth/api/check-session';
import { plansQueryOptions } from '../features/catalog/api/get-plans';
import { noticeQueryOptions } from '../features/notice/api/get-notice';
import { packageStatQueryOptions } from '../features/subscription/api/get-package-stat';
import { setLanguage } from '../i18n/i18n';
import { setUnauthorizedHandler } from '../lib/api-client';
import { PATHS } from '../lib/paths';
import { urlOptions } from '../lib/route-params';
import { runtimeConfigQueryOptions } from '../lib/runtime-config';
import { hasToken } from '../lib/storage';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';
import { LoginRoute } from './routes/login';
import { RootRoute } from './routes/root';

/** The router's base: Vite's `base` (/person/) without its trailing slash. */
export const ROUTER_BASENAME = import.meta.env.BASE_URL.replace(/\/$/, '') || '/';

/** The language an address asks for (`/orders/mobile/en`, `?lang=en`), if any. */
export function urlLanguage(url: URL | Location, params: Params) {
  return urlOptions(url.search, params).language;
}

/**
 * Shows the language the address asks for before anything is asked of the server, so that every call goes in it.
 * Once per navigation: a language the customer picks afterwards stays while the address does.
 */
async function applyUrlLanguage({ request, params }: LoaderFunctionArgs): Promise<null> {
  const language = urlLanguage(new URL(request.url), params);
  if (language) await setLanguage(language);
  return null;
}

/**
 * The loader of a signed-in route (spec section 2: outside the public paths a stored token is required): the address's
 * language, then the queries its screen shows first (`queryClient.ensureQueryData` with the options the screen reads
 * them with), asked for beside its code. A query that fails is the screen's to show: the api client has already told
 * the customer.
 */
function signedIn(firstData: () => readonly Promise<unknown>[] = () => []) {
  return async (args: LoaderFunctionArgs): Promise<null> => {
    if (!hasToken()) throw redirect(PATHS.login);
    await applyUrlLanguage(args);
    await Promise.allSettled(firstData());
    return null;
  };
}

/** A route module's screen, as a lazy route takes it. */
const screen = (module: { default: ComponentType }) => ({ Component: module.default });

/** The route table of spec section 2, relative to the base path /person/; every screen but login loads on demand. */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const signedInScreen = (
    path: string,
    title: RouteHandle['title'],
    lazy: RouteObject['lazy'],
    firstData?: () => readonly Promise<unknown>[],
  ): RouteObject => ({ path, handle: { title } satisfies RouteHandle, lazy, loader: signedIn(firstData) });
  const placeholder = () => import('./routes/placeholder').then(screen);

  return [
    {
      element: <RootRoute />,
      errorElement: <RouteError standalone />,
      // The brand index.html paints, until the first screen has its code and data.
      hydrateFallbackElement: <p className="boot-brand">Mutenet</p>,
      loader: applyUrlLanguage,
      children: [
        { path: PATHS.root, element: <Navigate to={PATHS.login} replace /> },
        { path: PATHS.login, element: <LoginRoute />, handle: { title: 'auth.login.title' } satisfies RouteHandle },
        {
          path: PATHS.register,
          handle: { title: 'auth.register.title' } satisfies RouteHandle,
          lazy: () => import('./routes/register').then(screen),
        },
        {
          path: PATHS.forgetPasswords,
          handle: { title: 'auth.reset.title' } satisfies RouteHandle,
          lazy: () => import('./routes/forget-passwords').then(screen),
        },
        {
          path: PATHS.showDocx,
          handle: { title: 'licence.title' } satisfies RouteHandle,
          lazy: () => import('./routes/show-docx').then(screen),
        },
        {
          // The shell shows the version and the signed-in email, checked once each time the app opens.
          lazy: () => import('./routes/app-layout').then(screen),
          loader: signedIn(() => [
            queryClient.ensureQueryData(runtimeConfigQueryOptions()),
            queryClient.ensureQueryData(sessionUserQueryOptions()),
          ]),
          children: [
            {
              // A screen that cannot load says so inside the shell, which stays.
              errorElement: <RouteError />,
              children: [
                { path: PATHS.home, element: <Navigate to={PATHS.dashboard} replace /> },
                signedInScreen(
                  `${PATHS.dashboard}/:from?/:lang?`,
                  'nav.dashboard',
                  () => import('./routes/dashboard').then(screen),
                  () => [
                    queryClient.ensureQueryData(noticeQueryOptions()),
                    queryClient.ensureQueryData(packageStatQueryOptions()),
                  ],
                ),
                signedInScreen(PATHS.knowledgeBase, 'nav.knowledgeBase', () =>
                  import('./routes/knowledge-base').then(screen),
                ),
                signedInScreen(
                  `${PATHS.shop}/:from?/:lang?`,
                  'nav.purchase',
                  () => import('./routes/shop').then(screen),
                  () => [queryClient.ensureQueryData(plansQueryOptions())],
                ),
                signedInScreen(`${PATHS.nodeStatus}/:from?/:lang?`, 'nav.nodeStatus', () =>
                  import('./routes/node-status').then(screen),
                ),
                signedInScreen(`${PATHS.orders}/:from?/:lang?`, 'nav.myOrder', () =>
                  import('./routes/orders').then(screen),
                ),
                signedInScreen(PATHS.invite, 'nav.invite', placeholder),
                signedInScreen(PATHS.help, 'nav.help', placeholder),
                signedInScreen(PATHS.flow, 'nav.flow', placeholder),
                signedInScreen(PATHS.userCentre, 'nav.userCentre', () => import('./routes/person').then(screen)),
                signedInScreen(`${PATHS.shopConfigure}/:obj`, 'nav.configure', () =>
                  import('./routes/shop-configure').then(screen),
                ),
                signedInScreen(`${PATHS.orderStatus}/:params`, 'nav.orderDetails', () =>
                  import('./routes/order-status').then(screen),
                ),
                { path: '*', element: <Navigate to={PATHS.home} replace /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** After a 401 (the api client has cleared storage) the router sends the customer to the login screen. */
export function sendToLoginOnUnauthorized(router: AppRouter): AppRouter {
  setUnauthorizedHandler(() => void router.navigate(PATHS.login, { replace: true }));
  return router;
}

/** The panel's router: the code and first data of the address the page opened at start loading at once. */
export function createAppRouter(routes: RouteObject[]): AppRouter {
  return sendToLoginOnUnauthorized(createBrowserRouter(routes, { basename: ROUTER_BASENAME }));
}
