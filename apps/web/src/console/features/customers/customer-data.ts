import { type AdminPermission, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useMemo } from 'react';
import { useText } from '../../i18n';
import { useSession } from '../../session/use-session';
import { customersStrings } from './i18n';

/** Every query of this screen starts so: a change to a customer refreshes the list and the page. */
export const CUSTOMERS_KEY = ['console', 'customers'] as const;

/** Date and time in the screen's language. */
export function useDateFormat(): Intl.DateTimeFormat {
  const { language } = useText(customersStrings);
  return useMemo(
    () => new Intl.DateTimeFormat(REQUEST_LANGUAGE[language], { dateStyle: 'medium', timeStyle: 'short' }),
    [language],
  );
}

/** Whether the operator's role allows an action: buttons for the others are not shown. */
export function usePermission(permission: AdminPermission): boolean {
  return useSession().data?.permissions.includes(permission) ?? false;
}
