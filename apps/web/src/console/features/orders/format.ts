import { type OrderStatus, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useCallback } from 'react';
import { ORDER_STATUS_LABELS } from '../../../i18n/order-statuses';
import { formatMoney } from '../../../lib/money';
import { useText } from '../../i18n';
import { ordersStrings } from './i18n';

/**
 * Statuses as the customer panel names them, and amounts (major units, as the contract gives them) with every decimal
 * they have, in the screen's language.
 */
export function useOrderFormat() {
  const { language } = useText(ordersStrings);
  const locale = REQUEST_LANGUAGE[language];
  const status = useCallback((value: OrderStatus) => ORDER_STATUS_LABELS[locale][value], [locale]);
  const money = useCallback((amount: number, currency: string) => formatMoney(amount, currency, locale), [locale]);
  return { status, money };
}
