import type { ConsoleScreen } from '../../screens';
import { ordersStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'orders',
  order: 30,
  permission: 'orders.read',
  strings: ordersStrings,
  load: () => import('./orders-screen'),
};
