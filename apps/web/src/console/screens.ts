import type { AdminPermission } from '@mutenet/contract';
import type { ComponentType } from 'react';
import type { AreaStrings } from './i18n';

/**
 * One section of the console. Each lives in `features/<area>/screen.ts` (found there by the registry below, so that
 * adding a section edits no shared file): its place in the menu, the permission that shows it, its strings (a `nav`
 * key names it in the menu) and its component, loaded when first opened.
 */
export type ConsoleScreen = {
  /** The path under the console, without slashes: `operators` is ADMIN_PATH/operators (and below it). */
  path: string;
  /** Place in the menu, smallest first. */
  order: number;
  /** The permission that shows it; null for every operator (their own account's section). */
  permission: AdminPermission | null;
  strings: AreaStrings<{ nav: string } & Record<string, string>>;
  load: () => Promise<{ default: ComponentType }>;
};

const modules = import.meta.glob<ConsoleScreen>('./features/*/screen.ts', { eager: true, import: 'screen' });

/** Every section, in menu order. */
export const SCREENS: readonly ConsoleScreen[] = Object.values(modules).sort((a, b) => a.order - b.order);

/** The sections the operator's session permits. */
export function screensFor(permissions: readonly AdminPermission[]): ConsoleScreen[] {
  return SCREENS.filter((screen) => screen.permission === null || permissions.includes(screen.permission));
}
