import { type ComponentType, lazy, useEffect, useMemo } from 'react';
import { matchRoutes, Navigate, type RouteObject, useLocation, useNavigate, useRoutes } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api-client';
import { PATHS } from '../lib/paths';
import { type RouteHandle, RouteMatchesContext } from './route-handle';
import { LoginRoute } from './routes/login';
import { mayShow, RootRoute } from './routes/root';

/** A screen loaded on demand: its component, and the function that starts loading its code. */
function onDemand(load: () => Promise<{ default: ComponentType }>) {
  return { Screen: lazy(load), load };
}

// The login screen is in the first bundle; every other screen loads on demand.
const Register = onDemand(() => import('./routes/register'));
const ForgetPasswords = onDemand(() => import('./routes/forget-passwords'));
const ShowDocx = onDemand(() => import('./routes/show-docx'));
const AppLayout = onDemand(() => import('./routes/app-layout'));
const Person = onDemand(() => import('./routes/person'));
const Dashboard = onDemand(() => import('./routes/dashboard'));
const KnowledgeBase = onDemand(() => import('./routes/knowledge-base'));
const NodeStatus = onDemand(() => import('./routes/node-status'));
const Placeholder = onDemand(() => import('./routes/placeholder'));
const Shop = onDemand(() => import('./routes/shop'));
const ShopConfigure = onDemand(() => import('./routes/shop-configure'));
const Orders = onDemand(() => import('./routes/orders'));
const OrderStatus = onDemand(() => import('./routes/order-status'));

/** The route of a screen loaded on demand, titled. */
function screenRoute(path: string, screen: ReturnType<typeof onDemand>, title: RouteHandle['title']): RouteObject {
  return { path, element: <screen.Screen />, handle: { title, load: screen.load } satisfies RouteHandle };
}

const titled = (title: RouteHandle['title']): RouteHandle => ({ title });

/** The route table of spec section 2, relative to the base path /person/. */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    children: [
      { path: PATHS.root, element: <Navigate to={PATHS.login} replace /> },
      { path: PATHS.login, element: <LoginRoute />, handle: titled('auth.login.title') },
      screenRoute(PATHS.register, Register, 'auth.register.title'),
      screenRoute(PATHS.forgetPasswords, ForgetPasswords, 'auth.reset.title'),
      screenRoute(PATHS.showDocx, ShowDocx, 'licence.title'),
      {
        element: <AppLayout.Screen />,
        handle: { load: AppLayout.load } satisfies RouteHandle,
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

/**
 * Renders the route table inside a router (BrowserRouter in the app, MemoryRouter in tests), shares
 * the current matches, and sends the user to the login screen after a 401.
 */
export function AppRoutes() {
  const location = useLocation();
  const navigate = useNavigate();
  const matches = useMemo(() => {
    const matched = matchRoutes(routes, location) ?? [];
    // The code of every route a location shows (the shell and the screen inside it) loads side by side, rather than
    // the screen's only once the shell has rendered; none for a location the guard turns away.
    if (mayShow(location.pathname)) {
      for (const { route } of matched) void (route.handle as RouteHandle | undefined)?.load?.();
    }
    return matched;
  }, [location]);

  useEffect(() => {
    // The api client has already cleared storage; the login screen forgets the cached data.
    setUnauthorizedHandler(() => void navigate(PATHS.login, { replace: true }));
    return () => setUnauthorizedHandler(null);
  }, [navigate]);

  const element = useRoutes(routes, location);
  return <RouteMatchesContext.Provider value={matches}>{element}</RouteMatchesContext.Provider>;
}
