import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminOrderDetail, AdminPaymentEvent } from '@mutenet/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { formatDateTime } from '../../../lib/dates';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { useSession } from '../../session/use-session';
import { orderQueryOptions } from './api';
import { CustomerLink } from './customer-link';
import { useOrderFormat } from './format';
import { ordersStrings } from './i18n';
import { OrderActions } from './order-actions';

function Time({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDateTime(at)}</time>;
}

const OUTCOMES = ['success', 'failed', 'cancel', 'doing', 'refunded', 'rejected'] as const;
const isOutcome = (outcome: string): outcome is (typeof OUTCOMES)[number] =>
  (OUTCOMES as readonly string[]).includes(outcome);

/** The order's fields, a row each. */
function OrderFields({ detail }: { detail: AdminOrderDetail }) {
  const { t } = useText(ordersStrings);
  const format = useOrderFormat();
  const { order, paidAt } = detail;
  const rows: [string, ReactNode][] = [
    [t('status'), format.status(order.status)],
    [t('customer'), <CustomerLink key="customer" customer={order.customer} />],
    [t('plan'), order.plan.name],
    [t('package'), t('packageOf', { label: order.package.label, days: order.package.days })],
    [t('amount'), format.money(order.amount, order.currency)],
    [t('gateway'), order.gateway ?? t('empty')],
    [t('paymentRef'), order.paymentRef ?? t('empty')],
    [t('created'), <Time key="created" at={order.createdAt} />],
    [t('paidAt'), paidAt === null ? t('notPaid') : <Time key="paid" at={paidAt} />],
  ];
  return (
    <Table aria-label={t('details')} variant="vertical" layout="fixed" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w={{ base: 130, sm: 200 }}>
              {label}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The gateways' (and operators') events about the order, oldest first. */
function PaymentEvents({ events }: { events: AdminPaymentEvent[] }) {
  const { t } = useText(ordersStrings);
  const format = useOrderFormat();
  return (
    <Stack gap="xs">
      <Title order={2} size="h3" id="order-events-title">
        {t('events')}
      </Title>
      {events.length === 0 ? (
        <Text>{t('noEvents')}</Text>
      ) : (
        <ScrollTable
          minWidth={720}
          striped
          verticalSpacing="xs"
          labelledBy="order-events-title"
          columns={[t('eventTime'), t('gateway'), t('eventId'), t('eventType'), t('amount'), t('applied')]}
        >
          {events.map((event) => (
            <Table.Tr key={`${event.gateway} ${event.eventId}`}>
              <Table.Td>
                <Time at={event.receivedAt} />
              </Table.Td>
              <Table.Td>{event.gateway}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{event.eventId}</Table.Td>
              <Table.Td>{isOutcome(event.outcome) ? t(`outcome_${event.outcome}`) : event.outcome}</Table.Td>
              <Table.Td>
                {event.amount === null || event.currency === null
                  ? t('empty')
                  : format.money(event.amount, event.currency)}
              </Table.Td>
              <Table.Td>{event.applied ? t('yes') : t('no')}</Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
    </Stack>
  );
}

/** One order: its fields, its payment events in time order, and the changes the operator's role may make to it. */
export function OrderPage() {
  const { t, language } = useText(ordersStrings);
  const { no = '' } = useParams();
  const { state } = useLocation();
  const session = useSession();
  const detail = useQuery(orderQueryOptions(no, language));
  // Back to the list as it was left (its filters), when the operator came from it.
  const listSearch = typeof state?.listSearch === 'string' && state.listSearch ? `?${state.listSearch}` : '';

  return (
    <Stack>
      <Anchor component={Link} to={`..${listSearch}`} relative="path" size="sm">
        {t('back')}
      </Anchor>
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {t('orderTitle', { no })}
      </Title>
      <ErrorAlert error={detail.error} />
      {detail.data && (
        <>
          <OrderActions order={detail.data.order} permissions={session.data?.permissions ?? []} />
          <OrderFields detail={detail.data} />
          <PaymentEvents events={detail.data.events} />
        </>
      )}
    </Stack>
  );
}
