import type { ConsoleScreen } from '../../screens';
import { noticeStrings } from './i18n';

export const screen: ConsoleScreen = {
  path: 'notice',
  order: 60,
  permission: 'notice.write',
  strings: noticeStrings,
  load: () => import('./notice-screen'),
};
