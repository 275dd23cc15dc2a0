import { lazy, useEffect, useMemo } from 'react';
import { matchRoutes, Navigate, type RouteObject, useLocation, useNavigate, useRoutes } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api-client';
import { PATHS } from '../lib/paths';
import { type RouteHandle, RouteMatchesContext } from './route-handle';
import { LoginRoute } from './routes/login';
import { RootRoute } from './routes/root';

// The login screen is in the first bundle; every other screen loads on demand.
const RegisterRoute = lazy(() => import('./routes/register'));
const ForgetPasswordsRoute = lazy(() => import('./routes/forget-passwords'));
const ShowDocxRoute = lazy(() => import('./routes/show-docx'));
const AppLayoutRoute = lazy(() => import('./routes/app-layout'));
const PersonRoute = lazy(() => import('./routes/person'));
const DashboardRoute = lazy(() => import('./routes/dashboard'));
const KnowledgeBaseRoute = lazy(() => import('./routes/knowledge-base'));
const NodeStatusRoute = lazy(() => import('./routes/node-status'));
const PlaceholderRoute = lazy(() => import('./routes/placeholder'));
const ShopRoute = lazy(() => import('./routes/shop'));
const ShopConfigureRoute = lazy(() => import('./routes/shop-configure'));
const OrdersRoute = lazy(() => import('./routes/orders'));
const OrderStatusRoute = lazy(() => import('./routes/order-status'));

const titled = (title: RouteHandle['title']): RouteHandle => ({ title });

/** The route table of spec section 2, relative to the base path /person/. */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    children: [
      { path: PATHS.root, element: <Navigate to={PATHS.login} replace /> },
      { path: PATHS.login, element: <LoginRoute />, handle: titled('auth.login.title') },
      { path: PATHS.register, element: <RegisterRoute />, handle: titled('auth.register.title') },
      { path: PATHS.forgetPasswords, element: <ForgetPasswordsRoute />, handle: titled('auth.reset.title') },
      { path: PATHS.showDocx, element: <ShowDocxRoute />, handle: titled('licence.title') },
      {
        element: <AppLayoutRoute />,
        children: [
          { path: PATHS.home, element: <Navigate to={PATHS.dashboard} replace /> },
          { path: `${PATHS.dashboard}/:from?/:lang?`, element: <DashboardRoute />, handle: titled('nav.dashboard') },
          { path: PATHS.knowledgeBase, element: <KnowledgeBaseRoute />, handle: titled('nav.knowledgeBase') },
          { path: `${PATHS.shop}/:from?/:lang?`, element: <ShopRoute />, handle: titled('nav.purchase') },
          {
            path: `${PATHS.nodeStatus}/:from?/:lang?`,
            element: <NodeStatusRoute />,
            handle: titled('nav.nodeStatus'),
          },
          { path: `${PATHS.orders}/:from?/:lang?`, element: <OrdersRoute />, handle: titled('nav.myOrder') },
          { path: PATHS.invite, element: <PlaceholderRoute />, handle: titled('nav.invite') },
          { path: PATHS.help, element: <PlaceholderRoute />, handle: titled('nav.help') },
          { path: PATHS.flow, element: <PlaceholderRoute />, handle: titled('nav.flow') },
          { path: PATHS.userCentre, element: <PersonRoute />, handle: titled('nav.userCentre') },
          { path: `${PATHS.shopConfigure}/:obj`, element: <ShopConfigureRoute />, handle: titled('nav.configure') },
          { path: `${PATHS.orderStatus}/:params`, element: <OrderStatusRoute />, handle: titled('nav.orderDetails') },
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
  const matches = useMemo(() => matchRoutes(routes, location) ?? [], [location]);

  useEffect(() => {
    // The api client has already cleared storage; the login screen forgets the cached data.
    setUnauthorizedHandler(() => void navigate(PATHS.login, { replace: true }));
    return () => setUnauthorizedHandler(null);
  }, [navigate]);

  const element = useRoutes(routes, location);
  return <RouteMatchesContext.Provider value={matches}>{element}</RouteMatchesContext.Provider>;
}
