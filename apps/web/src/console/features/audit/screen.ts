import type { ConsoleScreen } from '../../screens';
import { auditStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'audit',
  order: 90,
  permission: 'audit.read',
  strings: auditStrings,
  load: () => import('./audit-screen'),
};
