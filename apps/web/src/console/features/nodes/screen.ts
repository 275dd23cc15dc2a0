import type { ConsoleScreen } from '../../screens';
import { nodesStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'nodes',
  order: 50,
  permission: 'nodes.read',
  strings: nodesStrings,
  load: () => import('./nodes-screen'),
};
