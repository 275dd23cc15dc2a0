import type { ComponentType } from 'react';
import { PATHS } from '../../lib/paths';
import { getSessionValue, SESSION_KEYS, setSessionValue } from '../../lib/storage';
import { BookIcon, CartIcon, DashboardIcon, ReceiptIcon, ServerIcon, UserIcon } from '../ui/icons';

export type MenuEntryName = 'dashboard' | 'knowledgeBase' | 'purchase' | 'nodeStatus' | 'myOrder' | 'userCentre';
export type MenuEntry = { name: MenuEntryName; path: string; icon: ComponentType<{ size?: number }> };
export type MenuSection = { name: 'subscribe' | 'finance' | 'user' | null; entries: MenuEntry[] };

/** The side menu of spec section 2; labels are `nav.<name>`. */
export const MENU: MenuSection[] = [
  {
    name: null,
    entries: [
      { name: 'dashboard', path: PATHS.dashboard, icon: DashboardIcon },
      { name: 'knowledgeBase', path: PATHS.knowledgeBase, icon: BookIcon },
    ],
  },
  {
    name: 'subscribe',
    entries: [
      { name: 'purchase', path: PATHS.shop, icon: CartIcon },
      { name: 'nodeStatus', path: PATHS.nodeStatus, icon: ServerIcon },
    ],
  },
  { name: 'finance', entries: [{ name: 'myOrder', path: PATHS.orders, icon: ReceiptIcon }] },
  { name: 'user', entries: [{ name: 'userCentre', path: PATHS.userCentre, icon: UserIcon }] },
];

const ENTRIES = MENU.flatMap((section) => section.entries);

/** The entry a path belongs to: `/orders/mobile/en` is My order. */
export function entryOfPath(pathname: string): MenuEntry | undefined {
  const first = `/${pathname.split('/').filter(Boolean)[0] ?? ''}`;
  return ENTRIES.find((entry) => entry.path === first);
}

/**
 * The highlighted entry: the one the path belongs to, remembered in session storage (activeName,
 * activePath) so that screens outside the menu (configure, order details) keep their parent lit.
 */
export function resolveActiveEntry(pathname: string): MenuEntry | undefined {
  const entry = entryOfPath(pathname);
  if (entry) return entry;
  const stored = getSessionValue(SESSION_KEYS.activeName);
  return ENTRIES.find((candidate) => candidate.name === stored);
}

export function rememberActiveEntry(entry: MenuEntry): void {
  setSessionValue(SESSION_KEYS.activeName, entry.name);
  setSessionValue(SESSION_KEYS.activePath, entry.path);
}
