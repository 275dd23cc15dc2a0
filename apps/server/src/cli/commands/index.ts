import type { Noun } from '../command.js';
import { currencyCommands } from './currency.js';
import { orderCommands } from './order.js';
import { packageCommands } from './package.js';
import { planCommands } from './plan.js';

/** Every noun of `admin <noun> <verb>`, in the order help lists them; a later noun is one more file and line here. */
export const COMMANDS: Record<string, Noun> = {
  plan: planCommands,
  package: packageCommands,
  currency: currencyCommands,
  order: orderCommands,
};
