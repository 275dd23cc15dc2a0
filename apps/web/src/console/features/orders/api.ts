import { adminGetOrder, adminGetOrders, type Language, ORDER_STATUSES, type OrderStatus } from '@mutenet/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { consoleCall } from '../../api';

/** Every orders query starts with this key: a change to an order invalidates them all (lists and pages). */
export const ORDERS_KEY = ['console', 'orders'] as const;

/** The list's filters as the operator typed them, and as the address bar keeps them (`?status=success&…`). */
export type OrderFilters = {
  status: OrderStatus | '';
  currency: string;
  gateway: string;
  /** Whole local days, `YYYY-MM-DD`; `to` included. */
  from: string;
  to: string;
  /** A customer's email, or their id (digits only). */
  customer: string;
};

export const NO_FILTERS: OrderFilters = { status: '', currency: '', gateway: '', from: '', to: '', customer: '' };
const FILTER_NAMES = Object.keys(NO_FILTERS) as (keyof OrderFilters)[];

const isStatus = (value: string): value is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);

/** The filters an address names; a status the console does not know is left out. */
export function filtersOf(search: URLSearchParams): OrderFilters {
  const filters = { ...NO_FILTERS };
  for (const name of FILTER_NAMES) {
    const value = search.get(name) ?? '';
    if (name === 'status') filters.status = isStatus(value) ? value : '';
    else filters[name] = value;
  }
  return filters;
}

/** The address of the filters: only those set, so that an unfiltered list is plain `orders`. */
export function searchOf(filters: OrderFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filters[name].trim();
    if (value) search.set(name, value);
  }
  return search;
}

/** Midnight (local time) that starts a `YYYY-MM-DD` day, `days` later; undefined for no date or a bad one. */
function dayStart(date: string, days = 0): number | undefined {
  const day = dayjs(date);
  return date && day.isValid() ? day.add(days, 'day').startOf('day').valueOf() : undefined;
}

/** The filters as the API takes them: the customer by id when it is all digits, `to` exclusive (the next day). */
export function queryOf(filters: OrderFilters) {
  const customer = filters.customer.trim();
  return {
    status: filters.status || undefined,
    currency: filters.currency.trim().toUpperCase() || undefined,
    gateway: filters.gateway.trim() || undefined,
    from: dayStart(filters.from),
    to: dayStart(filters.to, 1),
    ...(/^\d+$/.test(customer) ? { userId: customer } : { email: customer || undefined }),
  };
}

/** Orders, newest first, a page at a time; plan names come in the screen's language, hence it in the key. */
export const ordersQueryOptions = (filters: OrderFilters, language: Language) =>
  infiniteQueryOptions({
    queryKey: [...ORDERS_KEY, 'list', language, filters],
    queryFn: ({ pageParam }) => consoleCall(adminGetOrders, { query: { ...queryOf(filters), cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });

export const orderQueryOptions = (no: string, language: Language) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, 'order', no, language],
    queryFn: () => consoleCall(adminGetOrder, { params: { no } }),
  });
