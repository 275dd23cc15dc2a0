import type { ConsoleScreen } from '../../screens';
import { operatorsStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'operators',
  order: 80,
  permission: 'operators.manage',
  strings: operatorsStrings,
  load: () => import('./operators-screen'),
};
