import type { AnyConsoleArea } from './area.js';
import { catalogArea } from './catalog.js';
import { customersArea } from './customers.js';
import { nodesArea } from './nodes.js';
import { noticeArea } from './notice.js';
import { operatorsArea } from './operators.js';
import { ordersArea } from './orders.js';
import { overviewArea } from './overview.js';
import { tokensArea } from './tokens.js';

/** Every area of the console's API; the access test checks that together they name every console route. */
export const CONSOLE_AREAS: AnyConsoleArea[] = [
  operatorsArea,
  ordersArea,
  catalogArea,
  customersArea,
  nodesArea,
  noticeArea,
  overviewArea,
  tokensArea,
];
