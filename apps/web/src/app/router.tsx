import {
  type FetchQueryOptions,
  type QueryClient,
  type QueryKey,
  QueryObserver,
  useQueryClient,
} from '@tanstack/react-query';
import { type ComponentType, lazy, useEffect, useMemo, useState } from 'react';
import {
  matchRoutes,
  Navigate,
  type RouteMatch,
  type RouteObject,
  useLocation,
  useNavigate,
  useRoutes,
} from 'react-router';
import { sessionUserQueryOptions } from '../features/auth/api/check-session';
import { captchaQueryOptions } from '../features/auth/api/get-captcha';
import { plansQueryOptions } from '../features/catalog/api/get-plans';
import { noticeQueryOptions } from '../features/notice/api/get-notice';
import { packageStatQueryOptions } from '../features/subscription/api/get-package-stat';
import { setUnauthorizedHandler } from '../lib/api-client';
import { PATHS } from '../lib/paths';
import { runtimeConfigQueryOptions } from '../lib/runtime-config';
import { hasToken } from '../lib/storage';
import { type FirstQuery, type RouteHandle, RouteMatchesContext } from './route-handle';
import { LoginRoute } from './routes/login';
import { mayShow, RootRoute } from './routes/root';
import type { ScreenModule } from './screens';

/** The route modules loaded on demand, by their files (the login screen and the root are in the first bundle). */
const ROUTE_MODULES = import.meta.glob<{ default: ComponentType }>([
  './routes/*.tsx',
  '!./routes/*.test.tsx',
  '!./routes/login.tsx',
  '!./routes/root.tsx',
]);

/** How long a first query is held for a screen that has not taken it (one the guard turned away, say). */
const FIRST_QUERY_HELD_MS = 30_000;

/**
 * A query a route shows first, started unless the cache already holds it (as TanStack Query's `usePrefetchQuery`
 * does): the screen's own query refreshes what is there, and a location rendered again, or a call that failed, asks
 * nothing more. Until the screen's own observer takes it, a stand-in holds it in the cache: a query kept for no time
 * once unobserved (the captcha, single use) would be dropped as it arrived, before the screen had rendered, and asked
 * for again.
 */
function firstQuery<T, K extends QueryKey>(options: () => FetchQueryOptions<T, Error, T, K>): FirstQuery {
  return (queryClient) => {
    const query = options();
    if (queryClient.getQueryState(query.queryKey)) return;
    // The same options, so that its gcTime stays the query's own; disabled, so that it never fetches.
    const standIn = new QueryObserver(queryClient, { ...query, enabled: false });
    const letGo = standIn.subscribe(() => {});
    const { queryHash } = standIn.getCurrentQuery();
    const release = () => {
      clearTimeout(timeout);
      stopWatching();
      letGo();
    };
    const stopWatching = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'observerAdded' && event.observer !== standIn && event.query.queryHash === queryHash)
        release();
    });
    const timeout = setTimeout(release, FIRST_QUERY_HELD_MS);
    void queryClient.prefetchQuery(query);
  };
}

/**
 * A screen loaded on demand: its component, and its route's handle: the function that starts loading its code, the
 * queries it shows first, and its module's name. A screen whose code has already arrived renders at once, rather than
 * suspending for a moment (its fallback shown, then replaced once React's pause between the two has passed).
 */
function onDemand(module: ScreenModule, queries: readonly FirstQuery[] = []) {
  const load = ROUTE_MODULES[`./routes/${module}.tsx`];
  if (!load) throw new Error(`no route module ${module}`);
  let loaded: ComponentType | undefined;
  const loadCode = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(loadCode);
  function Screen() {
    const [Component] = useState(() => loaded ?? Lazy);
    return <Component />;
  }
  const handle: RouteHandle = { load: loadCode, queries, module };
  return { Screen, handle };
}

// The public screens' picture code is asked for beside their code. With a stored token the login screen first checks
// the session, and asks for a picture only once that has lapsed.
const startCaptcha = firstQuery(captchaQueryOptions);
const loginQueries: FirstQuery[] = [
  (queryClient) => {
    if (!hasToken()) startCaptcha(queryClient);
  },
];
// The login screen is in the first bundle; every other screen loads on demand.
const Register = onDemand('register', [startCaptcha]);
const ForgetPasswords = onDemand('forget-passwords', [startCaptcha]);
const ShowDocx = onDemand('show-docx');
// The shell shows the version and the signed-in email, checked once each time the app opens.
const AppLayout = onDemand('app-layout', [firstQuery(runtimeConfigQueryOptions), firstQuery(sessionUserQueryOptions)]);
const Person = onDemand('person');
const Dashboard = onDemand('dashboard', [firstQuery(noticeQueryOptions), firstQuery(packageStatQueryOptions)]);
const KnowledgeBase = onDemand('knowledge-base');
const NodeStatus = onDemand('node-status');
const Placeholder = onDemand('placeholder');
const Shop = onDemand('shop', [firstQuery(plansQueryOptions)]);
const ShopConfigure = onDemand('shop-configure');
const Orders = onDemand('orders');
const OrderStatus = onDemand('order-status');

/** The route of a screen loaded on demand, titled. */
function screenRoute(path: string, screen: ReturnType<typeof onDemand>, title: RouteHandle['title']): RouteObject {
  return { path, element: <screen.Screen />, handle: { ...screen.handle, title } satisfies RouteHandle };
}

/** The route table of spec section 2, relative to the base path /person/. */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    children: [
      { path: PATHS.root, element: <Navigate to={PATHS.login} replace /> },
      {
        path: PATHS.login,
        element: <LoginRoute />,
        handle: { title: 'auth.login.title', queries: loginQueries } satisfies RouteHandle,
      },
      screenRoute(PATHS.register, Register, 'auth.register.title'),
      screenRoute(PATHS.forgetPasswords, ForgetPasswords, 'auth.reset.title'),
      screenRoute(PATHS.showDocx, ShowDocx, 'licence.title'),
      {
        element: <AppLayout.Screen />,
        handle: AppLayout.handle,
        children: [
          { path: PATHS.home, element: <Navigate to={PATHS.dashboard} replace /> },
          screenRoute(`${PATHS.dashboard}/:from?/:lang?`, Dashboard, 'nav.dashboard'),
          screenRoute(PATHS.knowledgeBase, KnowledgeBase, 'nav.knowledgeBase'),
          screenRoute(`${PATHS.shop}/:from?/:lang?`, Shop, 'nav.purchase'),
          screenRoute(`${PATHS.nodeStatus}/:from?/:lang?`, NodeStatus, 'nav.nodeStatus'),
          screenRoute(`${PATHS.orders}/:from?/:lang?`, Orders, 'nav.myOrder'),
          screenRoute(PATHS.invite, Placeholder, 'nav.invite'),
          screenRoute(PATHS.help, Placeholder, 'nav.help'),
          screenRoute(PATHS.flow, Placeholder, 'nav.flow'),
          screenRoute(PATHS.userCentre, Person, 'nav.userCentre'),
          screenRoute(`${PATHS.shopConfigure}/:obj`, ShopConfigure, 'nav.configure'),
          screenRoute(`${PATHS.orderStatus}/:params`, OrderStatus, 'nav.orderDetails'),
          { path: '*', element: <Navigate to={PATHS.home} replace /> },
        ],
      },
    ],
  },
];

/** The router's base: Vite's `base` (/person/) without its trailing slash. */
export const ROUTER_BASENAME = import.meta.env.BASE_URL.replace(/\/$/, '') || '/';

/** The routes a location (below the base path) shows, outermost first. */
export function matchLocation(pathname: string): RouteMatch<string, RouteObject>[] {
  return matchRoutes(routes, pathname) ?? [];
}

/** Resolves in a task of its own: what follows runs once the browser has had the main thread back. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Starts loading the code of every route a location shows, the shell and the screen inside it, and their first
 * queries, all side by side rather than each once the one before has rendered; nothing for a location the guard turns
 * away. Settles once the code has arrived (or failed to).
 */
export async function preloadRoutes(
  matches: readonly RouteMatch<string, RouteObject>[],
  pathname: string,
  queryClient: QueryClient,
): Promise<void> {
  if (!mayShow(pathname)) return;
  const handles = matches.map(({ route }) => route.handle as RouteHandle | undefined);
  // The data first, the screen's and the shell's side by side, as it waits on the server; then the code. Each query
  // starts in a short task of its own: a page's first requests cost a phone's main thread several milliseconds each,
  // which in one task held it for a Lighthouse-throttled 300 ms.
  for (const startQuery of [...handles].reverse().flatMap((handle) => handle?.queries ?? [])) {
    startQuery(queryClient);
    await nextTask();
  }
  await Promise.allSettled(handles.map((handle) => handle?.load?.()));
}

/**
 * Renders the route table inside a router (BrowserRouter in the app, MemoryRouter in tests), shares
 * the current matches, and sends the user to the login screen after a 401.
 */
export function AppRoutes() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const matches = useMemo(() => {
    const matched = matchLocation(location.pathname);
    void preloadRoutes(matched, location.pathname, queryClient);
    return matched;
  }, [location.pathname, queryClient]);

  useEffect(() => {
    // The api client has already cleared storage; the login screen forgets the cached data.
    setUnauthorizedHandler(() => void navigate(PATHS.login, { replace: true }));
    return () => setUnauthorizedHandler(null);
  }, [navigate]);

  const element = useRoutes(routes, location);
  return <RouteMatchesContext.Provider value={matches}>{element}</RouteMatchesContext.Provider>;
}
