import type { Noun } from '../command.js';
import { backupCommands } from './backup.js';
import { currencyCommands } from './currency.js';
import { nodeCommands } from './node.js';
import { noticeCommands } from './notice.js';
import { operatorCommands } from './operator.js';
import { orderCommands } from './order.js';
import { packageCommands } from './package.js';
import { planCommands } from './plan.js';
import { userCommands } from './user.js';

/** Every noun of `admin <noun> <verb>`, in the order help lists them; a later noun is one more file and line here. */
export const COMMANDS: Record<string, Noun> = {
  plan: planCommands,
  package: packageCommands,
  currency: currencyCommands,
  order: orderCommands,
  user: userCommands,
  node: nodeCommands,
  notice: noticeCommands,
  operator: operatorCommands,
  backup: backupCommands,
};
