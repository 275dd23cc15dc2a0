import type { TestApp } from './test-app.js';

/** One route the app serves, as `METHOD /path` with Fastify's own placeholders (`:param`, `*`). */
export type RouteKey = `${string} /${string}`;

// A line of `printRoutes()`, the router's radix tree: indentation (four characters a level), a branch, the text that
// continues the parent's path, and the methods of the route that ends there, if one does.
const TREE_LINE = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every route the running app has registered, read from its own route tree, so that a route added later is listed
 * without anyone naming it. The HEAD routes Fastify adds beside each GET (`exposeHeadRoutes`) run the GET's handler
 * and are left out.
 */
export function registeredRoutes(app: TestApp): RouteKey[] {
  const prefixes: string[] = [];
  const routes: RouteKey[] = [];
  for (const line of app.app.printRoutes().split('\n')) {
    const match = TREE_LINE.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth === 0 ? '' : prefixes[depth - 1]!) + match[2]!;
    prefixes[depth] = path;
    const methods = match[3]?.split(', ') ?? [];
    for (const method of methods) {
      if (method !== 'HEAD' || !methods.includes('GET')) routes.push(`${method} ${path}` as RouteKey);
    }
  }
  return routes.sort();
}
