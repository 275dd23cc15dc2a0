import * as z from 'zod/mini';

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
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = [
  'success',
  'timeout',
  'refunded',
  'cancel',
  'close',
  'failed',
];

/** The details screen offers its button for these; cancel only for `waiting`. */
export const DETAILS_ORDER_STATUSES: readonly OrderStatus[] = ['success', 'waiting', 'paying'];

export const CURRENCY_SYMBOLS: Record<string, string> = {
  USD: '$',
  BRL: 'R$',
  COP: 'COP$',
  MXN: 'MX$',
  CLP: 'CLP$',
  PEN: 'S/',
};

/** Unguessable and sortable by time: a UTC timestamp to the second followed by 10 random digits. */
export const ORDER_NO_PATTERN = /^\d{24}$/;

export const OrderSchema = z.object({
  no: z.string(),
  pdName: z.string(),
  pkgType: z.string(),
  status: z.catch(OrderStatusSchema, 'unused'),
  currency: z.string(),
  /** Major units. */
  totalPrice: z.number(),
  /** Epoch milliseconds. */
  createAt: z.number(),
});
export type Order = z.infer<typeof OrderSchema>;

/** `?no=` of the order calls: anything but an order number finds nothing. */
export const OrderNoQuerySchema = z.object({ no: z._default(z.string().check(z.maxLength(64)), '') });
