import type { ConsoleScreen } from '../../screens';
import { catalogStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'catalog',
  order: 40,
  permission: 'catalog.read',
  strings: catalogStrings,
  load: () => import('./catalog-screen'),
};
