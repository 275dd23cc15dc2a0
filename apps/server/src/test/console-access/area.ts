import type { AdminPermission } from '@mutenet/contract';
import type { RouteKey } from '../routes.js';
import type { TestApp } from '../test-app.js';

/** A console call as the access test sends it, under the console's path (`/api/...`). */
export type ConsoleCall = { method: string; path: string; json?: unknown };

/**
 * One console route: the permission its role must have (null: any operator's full session), written as the call that
 * would change or show something if it got through, on the things its area made for the round (`targets`).
 */
export type ConsoleRoute<T> = { permission: AdminPermission | null; call: (targets: T) => ConsoleCall };

/**
 * The console's routes of one area (operators, customers, orders…) and the things their calls act on. The access
 * test makes a fresh set of targets for each round (each role, each kind of refused session), so that one round's
 * changes (a node removed, an order refunded) do not stand in another's way. Within a round the routes are called in
 * the order written: put the calls that end a target last.
 */
export type ConsoleArea<T> = {
  targets(app: TestApp, unique: string): Promise<T>;
  routes: Record<RouteKey, ConsoleRoute<T>>;
};

export const consoleArea = <T>(area: ConsoleArea<T>) => area;

/** An area of any targets, as the access test holds them all: it hands each route its own area's targets. */
export type AnyConsoleArea = {
  targets(app: TestApp, unique: string): Promise<unknown>;
  routes: Record<RouteKey, { permission: AdminPermission | null; call: (targets: never) => ConsoleCall }>;
};
