import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RouteHandle } from './route-handle';
import { routes } from './router';
import { SCREEN_MODULES, type ScreenModule } from './screens';

/** Each screen route's first path segment, with the route modules loaded on demand from the root down to it. */
function screensOf(table: readonly RouteObject[], outer: readonly ScreenModule[] = []): [string, ScreenModule[]][] {
  return table.flatMap((route) => {
    const module = (route.handle as RouteHandle | undefined)?.module;
    const modules = module ? [...outer, module] : [...outer];
    const own: [string, ScreenModule[]][] = module && route.path ? [[`/${route.path.split('/')[1]}`, modules]] : [];
    return [...own, ...screensOf(route.children ?? [], modules)];
  });
}

describe('SCREEN_MODULES', () => {
  it('names for each path the route modules the router loads for it, and no path the router does not have', () => {
    const screens = screensOf(routes);
    expect(screens.length).toBeGreaterThan(10);
    expect(Object.fromEntries(screens)).toEqual(SCREEN_MODULES);
  });
});
