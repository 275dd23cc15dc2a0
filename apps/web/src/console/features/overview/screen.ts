import type { ConsoleScreen } from '../../screens';
import { overviewStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'overview',
  order: 10,
  permission: 'overview.read',
  strings: overviewStrings,
  load: () => import('./overview-screen'),
};
