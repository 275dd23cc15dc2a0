import type { AnyConsoleArea } from './area.js';
import { operatorsArea } from './operators.js';

/** Every area of the console's API; the access test checks that together they name every console route. */
export const CONSOLE_AREAS: AnyConsoleArea[] = [operatorsArea];
