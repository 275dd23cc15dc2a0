import type { Language } from '@mutenet/contract';
import { usePrefetchQuery } from '@tanstack/react-query';
import { lazy, type ReactElement, useEffect, useMemo, useState } from 'react';
import {
  matchRoutes,
  Navigate,
  Outlet,
  type Params,
  type RouteObject,
  useLocation,
  useNavigate,
  useRoutes,
} from 'react-router';
import { sessionUserQueryOptions } from '../features/auth/api/check-session';
import { plansQueryOptions } from '../features/catalog/api/get-plans';
import { noticeQueryOptions } from '../features/notice/api/get-notice';
import { packageStatQueryOptions } from '../features/subscription/api/get-package-stat';
import { currentLanguage, setLanguage } from '../i18n/i18n';
import { setUnauthorizedHandler } from '../lib/api-client';
import { PATHS } from '../lib/paths';
import { urlOptions } from '../lib/route-params';
import { runtimeConfigQueryOptions } from '../lib/runtime-config';
import { hasToken } from '../lib/storage';
import { type RouteHandle, RouteMatchesContext } from './route-handle';
import { LoginRoute } from './routes/login';
import { RootRoute } from './routes/root';

/** The router's base: Vite's `base` (/person/) without its trailing slash. */
export const ROUTER_BASENAME = import.meta.env.BASE_URL.replace(/\/$/, '') || '/';

/** The language an address asks for (`/orders/mobile/en`, `?lang=en`), if any. */
export function urlLanguage(url: URL | Location | { search: string }, params: Params) {
  return urlOptions(url.search, params).language;
}

// Every screen but login loads its code on demand. The screens that show data as they open ask for it beside their
// code, with the query options they read it with (TanStack Query's usePrefetchQuery), rather than after it.
const AppLayout = lazy(() => import('./routes/app-layout'));
const Dashboard = lazy(() => import('./routes/dashboard'));
const Shop = lazy(() => import('./routes/shop'));
const Register = lazy(() => import('./routes/register'));
const ForgetPasswords = lazy(() => import('./routes/forget-passwords'));
const ShowDocx = lazy(() => import('./routes/show-docx'));
const KnowledgeBase = lazy(() => import('./routes/knowledge-base'));
const NodeStatus = lazy(() => import('./routes/node-status'));
const Orders = lazy(() => import('./routes/orders'));
const Person = lazy(() => import('./routes/person'));
const ShopConfigure = lazy(() => import('./routes/shop-configure'));
const OrderStatus = lazy(() => import('./routes/order-status'));
const Placeholder = lazy(() => import('./routes/placeholder'));

/** The shell shows the version and the signed-in email, checked once each time the app opens. */
function AppLayoutScreen() {
  usePrefetchQuery(runtimeConfigQueryOptions());
  usePrefetchQuery(sessionUserQueryOptions());
  return <AppLayout />;
}

function DashboardScreen() {
  usePrefetchQuery(noticeQueryOptions());
  usePrefetchQuery(packageStatQueryOptions());
  return <Dashboard />;
}

function ShopScreen() {
  usePrefetchQuery(plansQueryOptions());
  return <Shop />;
}

/** Spec section 2: outside the public paths a stored token is required. */
function SignedIn() {
  return hasToken() ? <Outlet /> : <Navigate to={PATHS.login} replace />;
}

const titled = (path: string, title: RouteHandle['title'], element: ReactElement): RouteObject => ({
  path,
  element,
  handle: { title } satisfies RouteHandle,
});

/** The route table of spec section 2, relative to the base path /person/. */
export function createRoutes(): RouteObject[] {
  return [
    {
      element: <RootRoute />,
      children: [
        { path: PATHS.root, element: <Navigate to={PATHS.login} replace /> },
        titled(PATHS.login, 'auth.login.title', <LoginRoute />),
        titled(PATHS.register, 'auth.register.title', <Register />),
        titled(PATHS.forgetPasswords, 'auth.reset.title', <ForgetPasswords />),
        titled(PATHS.showDocx, 'licence.title', <ShowDocx />),
        {
          element: <SignedIn />,
          children: [
            {
              element: <AppLayoutScreen />,
              children: [
                { path: PATHS.home, element: <Navigate to={PATHS.dashboard} replace /> },
                titled(`${PATHS.dashboard}/:from?/:lang?`, 'nav.dashboard', <DashboardScreen />),
                titled(PATHS.knowledgeBase, 'nav.knowledgeBase', <KnowledgeBase />),
                titled(`${PATHS.shop}/:from?/:lang?`, 'nav.purchase', <ShopScreen />),
                titled(`${PATHS.nodeStatus}/:from?/:lang?`, 'nav.nodeStatus', <NodeStatus />),
                titled(`${PATHS.orders}/:from?/:lang?`, 'nav.myOrder', <Orders />),
                titled(PATHS.invite, 'nav.invite', <Placeholder />),
                titled(PATHS.help, 'nav.help', <Placeholder />),
                titled(PATHS.flow, 'nav.flow', <Placeholder />),
                titled(PATHS.userCentre, 'nav.userCentre', <Person />),
                titled(`${PATHS.shopConfigure}/:obj`, 'nav.configure', <ShopConfigure />),
                titled(`${PATHS.orderStatus}/:params`, 'nav.orderDetails', <OrderStatus />),
                { path: '*', element: <Navigate to={PATHS.home} replace /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}

/**
 * Shows the language the address asks for before its screen renders, so that every call goes in it. Once per
 * navigation: a language the customer picks afterwards stays while the address does. True once it is shown.
 */
function useUrlLanguage(language: Language | undefined, navigation: string): boolean {
  const [applied, setApplied] = useState<string>();
  useEffect(() => {
    if (!language || applied === navigation) return;
    let live = true;
    void setLanguage(language).then(() => {
      if (live) setApplied(navigation);
    });
    return () => {
      live = false;
    };
  }, [language, navigation, applied]);
  return !language || applied === navigation || currentLanguage() === language;
}

/** After a 401 (the api client has cleared storage) the customer is sent to the login screen. */
function useUnauthorizedToLogin() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => void navigate(PATHS.login, { replace: true }));
    return () => setUnauthorizedHandler(null);
  }, [navigate]);
}

/** The screen of the address shown, with the routes it matched for the title and the shell. */
export function AppRoutes({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  const matches = useMemo(() => matchRoutes(routes, location) ?? [], [routes, location]);
  const element = useRoutes(routes, location);
  const ready = useUrlLanguage(urlLanguage(location, matches.at(-1)?.params ?? {}), location.key);
  useUnauthorizedToLogin();
  return <RouteMatchesContext.Provider value={matches}>{ready ? element : null}</RouteMatchesContext.Provider>;
}
