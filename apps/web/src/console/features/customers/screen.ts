import type { ConsoleScreen } from '../../screens';
import { customersStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'customers',
  order: 20,
  permission: 'customers.read',
  strings: customersStrings,
  load: () => import('./customers-screen'),
};
