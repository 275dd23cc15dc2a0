import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../lib/react-query';
import { setToken } from '../lib/storage';
import { stubFetch } from '../testing/fetch-stub';
import type { RouteHandle } from './route-handle';
import { routes } from './router';
import { FIRST_CALLS, SCREEN_MODULES, type ScreenModule } from './screens';

/** Each screen route's first path segment, with the route modules loaded on demand from the root down to it. */
function screensOf(table: readonly RouteObject[], outer: readonly ScreenModule[] = []): [string, ScreenModule[]][] {
  return table.flatMap((route) => {
    const module = (route.handle as RouteHandle | undefined)?.module;
    const modules = module ? [...outer, module] : [...outer];
    const own: [string, ScreenModule[]][] = module && route.path ? [[`/${route.path.split('/')[1]}`, modules]] : [];
    return [...own, ...screensOf(route.children ?? [], modules)];
  });
}

/** The handles of the routes that load a module on demand, each module once. */
function moduleHandles(table: readonly RouteObject[]): Map<ScreenModule, RouteHandle> {
  const handles = new Map<ScreenModule, RouteHandle>();
  for (const route of table) {
    const handle = route.handle as RouteHandle | undefined;
    if (handle?.module) handles.set(handle.module, handle);
    for (const [module, inner] of moduleHandles(route.children ?? [])) handles.set(module, inner);
  }
  return handles;
}

describe('SCREEN_MODULES', () => {
  it('names for each path the route modules the router loads for it, and no path the router does not have', () => {
    const screens = screensOf(routes);
    expect(screens.length).toBeGreaterThan(10);
    expect(Object.fromEntries(screens)).toEqual(SCREEN_MODULES);
  });
});

describe('FIRST_CALLS', () => {
  it("names for each signed-in screen's route module the calls its route's first queries make", async () => {
    setToken('tok');
    const net = stubFetch();
    const signedIn = new Set(
      Object.values(SCREEN_MODULES)
        .filter((modules) => modules.includes('app-layout'))
        .flat(),
    );
    expect(signedIn.size).toBeGreaterThan(8);
    expect(Object.keys(FIRST_CALLS).filter((module) => !signedIn.has(module as ScreenModule))).toEqual([]);
    const handles = [...moduleHandles(routes)].filter(([module]) => signedIn.has(module));
    expect(handles).toHaveLength(signedIn.size);
    for (const [module, handle] of handles) {
      const queryClient = createQueryClient();
      const before = net.requests.length;
      for (const startQuery of handle.queries ?? []) startQuery(queryClient);
      await new Promise((resolve) => setTimeout(resolve, 0));
      const made = net.requests.slice(before).map(({ method, path }) => `${method} ${path}`);
      const named = (FIRST_CALLS[module] ?? []).map(({ method, path }) => `${method} ${path}`);
      expect(made.sort(), module).toEqual(named.sort());
      queryClient.clear();
    }
  });
});
