import { z } from 'zod';

/** Order statuses as the panel shows them; `unused` is only a display fallback for an unknown status. */
export const ORDER_STATUSES = [
  'waiting',
  'paying',
  'close',
  'cancel',
  'timeout',
  'failed',
  'success',
  'unused',
  'rejected',
  'doing',
  'refunded',
] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** Statuses after which an order changes no more, so its details stop polling. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ['success', 'timeout', 'refunded', 'cancel', 'close', 'failed'];

export const CURRENCY_SYMBOLS: Record<string, string> = {
  USD: '$',
  BRL: 'R$',
  COP: 'COP$',
  MXN: 'MX$',
  CLP: 'CLP$',
  PEN: 'S/',
};
