import * as z from 'zod/mini';

/**
 * Operators' roles. `owner`: everything, operators and money included. `manager`: catalogue, nodes, notice,
 * customers and orders, but no refunds or chargebacks. `support`: reads customers and orders, bans and unbans, resets
 * a customer's subscription; nothing with money.
 */
export const OPERATOR_ROLES = ['owner', 'manager', 'support'] as const;
export const OperatorRoleSchema = z.enum(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof OperatorRoleSchema>;

const ALL = ['owner', 'manager', 'support'] as const satisfies readonly OperatorRole[];
const MANAGERS = ['owner', 'manager'] as const satisfies readonly OperatorRole[];
const OWNERS = ['owner'] as const satisfies readonly OperatorRole[];

/**
 * What each role may do: the server refuses (403) and the console hides what the role lacks. One table for both,
 * so that a button is never shown for an action the server would refuse.
 */
export const ADMIN_PERMISSIONS = {
  /** Revenue, orders, customers, subscriptions, nodes and traffic at a glance. */
  'overview.read': MANAGERS,
  'customers.read': ALL,
  'customers.ban': ALL,
  'customers.resetSubscription': ALL,
  'customers.addDays': MANAGERS,
  'customers.addTraffic': MANAGERS,
  'customers.revokeSession': ALL,
  'orders.read': ALL,
  'orders.markPaid': MANAGERS,
  'orders.refund': OWNERS,
  'orders.chargeback': OWNERS,
  'catalog.read': MANAGERS,
  'catalog.write': MANAGERS,
  'nodes.read': MANAGERS,
  'nodes.write': MANAGERS,
  'notice.write': MANAGERS,
  'operators.manage': OWNERS,
  'tokens.manage': OWNERS,
  'audit.read': OWNERS,
} as const satisfies Record<string, readonly OperatorRole[]>;

export type AdminPermission = keyof typeof ADMIN_PERMISSIONS;

export function roleMay(role: OperatorRole, permission: AdminPermission): boolean {
  return (ADMIN_PERMISSIONS[permission] as readonly OperatorRole[]).includes(role);
}
