/** The panel's routes, relative to the router's base (/person/). */
export const PATHS = {
  root: '/',
  login: '/login',
  register: '/register',
  forgetPasswords: '/forgetPasswords',
  showDocx: '/showDocx',
  home: '/home',
  dashboard: '/pannel',
  knowledgeBase: '/document',
  shop: '/shop',
  nodeStatus: '/state',
  orders: '/orders',
  invite: '/invite',
  help: '/help',
  flow: '/flow',
  userCentre: '/person',
  shopConfigure: '/shopConfigure',
  orderStatus: '/status',
} as const;

/** Reachable without a token (spec section 2); every other path needs one. */
export const PUBLIC_PATHS: readonly string[] = [
  PATHS.login,
  PATHS.register,
  PATHS.root,
  PATHS.showDocx,
  PATHS.forgetPasswords,
];

export function isPublicPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PUBLIC_PATHS.includes(path || '/');
}
