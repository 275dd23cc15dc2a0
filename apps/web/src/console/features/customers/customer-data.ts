import type { AdminPermission } from '@mutenet/contract';
import { useMemo } from 'react';
import { dateTimeFormat } from '../../dates';
import { useText } from '../../i18n';
import { useSession } from '../../session/use-session';
import { customersStrings } from './i18n';

/** Every query of this screen starts so: a change to a customer refreshes the list and the page. */
export const CUSTOMERS_KEY = ['console', 'customers'] as const;

/** Date and time in the screen's language. */
export function useDateFormat(): Intl.DateTimeFormat {
  const { language } = useText(customersStrings);
  return useMemo(() => dateTimeFormat(language), [language]);
}

/** Whether the operator's role allows an action: buttons for the others are not shown. */
export function usePermission(permission: AdminPermission): boolean {
  return useSession().data?.permissions.includes(permission) ?? false;
}
