import type { ConsoleScreen } from '../../screens';
import { securityStrings } from './i18n';

/** Every operator's own passkeys; owners' API tokens too. */
export const screen: ConsoleScreen = {
  path: 'security',
  order: 70,
  permission: null,
  strings: securityStrings,
  load: () => import('./security-screen'),
};
