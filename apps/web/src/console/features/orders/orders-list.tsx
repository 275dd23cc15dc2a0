import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { ORDER_STATUSES, type OrderStatus } from '@mutenet/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/dates';
import { MoreButton } from '../../components/more-button';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { filtersOf, NO_FILTERS, type OrderFilters, ordersQueryOptions, searchOf } from './api';
import { CustomerLink } from './customer-link';
import { useOrderFormat } from './format';
import { ordersStrings } from './i18n';

/** The filters' form; it starts from the address's filters and, applied, writes them back there. */
function FilterForm({ initial, onApply }: { initial: OrderFilters; onApply: (filters: OrderFilters) => void }) {
  const { t } = useText(ordersStrings);
  const format = useOrderFormat();
  const [draft, setDraft] = useState(initial);
  const field = (name: keyof OrderFilters) => ({
    value: draft[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setDraft((current) => ({ ...current, [name]: value }));
    },
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form onSubmit={apply} aria-label={t('filters')}>
      <Group align="flex-end">
        <NativeSelect
          label={t('status')}
          data={[
            { value: '', label: t('anyStatus') },
            ...ORDER_STATUSES.map((status: OrderStatus) => ({ value: status, label: format.status(status) })),
          ]}
          {...field('status')}
        />
        <TextInput label={t('currency')} placeholder={t('currencyHint')} maxLength={3} {...field('currency')} />
        <TextInput label={t('gateway')} placeholder={t('gatewayHint')} maxLength={32} {...field('gateway')} />
        <TextInput label={t('from')} type="date" {...field('from')} />
        <TextInput label={t('to')} type="date" {...field('to')} />
        <TextInput label={t('customer')} placeholder={t('customerHint')} maxLength={254} {...field('customer')} />
        <Button type="submit">{t('apply')}</Button>
        <Button variant="default" onClick={() => onApply(NO_FILTERS)}>
          {t('clear')}
        </Button>
      </Group>
    </form>
  );
}

/**
 * Every order, newest first, filtered, a page at a time ("show more"). The filters live in the address, so that back,
 * forward, a reload and a shared link all show the same list.
 */
export function OrdersList() {
  const { t, language } = useText(ordersStrings);
  const format = useOrderFormat();
  const [search, setSearch] = useSearchParams();
  const filters = filtersOf(search);
  const list = useInfiniteQuery(ordersQueryOptions(filters, language));
  const orders = list.data?.pages.flatMap((page) => page.orders) ?? [];

  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      {/* Keyed by the address: back and forward put their filters in the form too. */}
      <FilterForm key={search.toString()} initial={filters} onApply={(applied) => setSearch(searchOf(applied))} />
      <ErrorAlert error={list.error} />
      <Text role="status" size="sm" c="dimmed">
        {list.isSuccess && (orders.length === 0 ? t('none') : t('shown', { count: orders.length }))}
      </Text>
      {orders.length > 0 && (
        <ScrollTable
          minWidth={820}
          striped
          verticalSpacing="xs"
          label={t('title')}
          columns={[t('order'), t('created'), t('customer'), t('package'), t('amount'), t('gateway'), t('status')]}
        >
          {orders.map((order) => (
            <Table.Tr key={order.no}>
              <Table.Td>
                <Anchor component={Link} to={order.no} state={{ listSearch: search.toString() }} ff="monospace">
                  {order.no}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <time dateTime={new Date(order.createdAt).toISOString()}>{formatDateTime(order.createdAt)}</time>
              </Table.Td>
              <Table.Td>
                <CustomerLink customer={order.customer} />
              </Table.Td>
              <Table.Td>
                {order.plan.name} · {order.package.label}
              </Table.Td>
              <Table.Td>{format.money(order.amount, order.currency)}</Table.Td>
              <Table.Td>{order.gateway ?? t('empty')}</Table.Td>
              <Table.Td>{format.status(order.status)}</Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
      <MoreButton pages={list} label={t('more')} />
    </Stack>
  );
}
