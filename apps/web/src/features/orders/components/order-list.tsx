import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Paper.css';
import { Button, Center, Group, Loader, Paper, ScrollArea, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { DETAILS_ORDER_STATUSES, type Order, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ChevronRightIcon } from '../../../components/ui/icons';
import { packageTypeText } from '../../../i18n/package-types';
import { useLanguage } from '../../../i18n/use-language';
import { formatDateTime } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { useCancelOrder } from '../api/cancel-order';
import { useOrders } from '../api/get-orders';
import { OrderStatusLabel } from './order-status';

/** Spec section 2: details for success, waiting and paying orders; cancel only while waiting. */
export function canOpenDetails(order: Order): boolean {
  return DETAILS_ORDER_STATUSES.includes(order.status);
}

export function canCancel(order: Order): boolean {
  return order.status === 'waiting';
}

export type OrderListProps = {
  /** A table on a desktop; cards on a phone and in mobile mode. */
  layout: 'table' | 'cards';
  onDetails: (order: Order) => void;
  shopHref: string;
};

/** My orders (spec section 2): the list, its details and cancel actions, and the cancel confirmation. */
export function OrderList({ layout, onDetails, shopHref }: OrderListProps) {
  const { t } = useTranslation();
  const orders = useOrders();
  const [cancelling, setCancelling] = useState<Order | null>(null);
  const cancel = useCancelOrder({ onSuccess: () => setCancelling(null) });

  if (orders.isPending) {
    return (
      <Center py="xl" role="status">
        <Loader size="md" role="img" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (orders.isError) {
    return (
      <Stack align="flex-start" gap="sm">
        <Text>{t('orders.loadFailed')}</Text>
        <Button variant="default" onClick={() => void orders.refetch()}>
          {t('common.retry')}
        </Button>
      </Stack>
    );
  }
  if (orders.data.length === 0) {
    return (
      <Stack align="flex-start" gap="sm" data-testid="orders-empty">
        <Text>{t('orders.empty')}</Text>
        <Button component={Link} to={shopHref} variant="default">
          {t('orders.goToShop')}
        </Button>
      </Stack>
    );
  }

  return (
    <>
      {layout === 'table' ? (
        <OrderTable orders={orders.data} onDetails={onDetails} onCancel={setCancelling} />
      ) : (
        <OrderCards orders={orders.data} onDetails={onDetails} />
      )}
      <ConfirmDialog
        opened={cancelling !== null}
        title={t('orders.cancelTitle')}
        confirmLabel={t('orders.cancelConfirm')}
        cancelLabel={t('orders.keep')}
        onConfirm={() => {
          if (cancelling && !cancel.isPending) cancel.mutate(cancelling.no);
        }}
        onClose={() => setCancelling(null)}
        loading={cancel.isPending}
        danger
        testId="cancel-dialog"
      >
        {t('orders.cancelWarning')}
      </ConfirmDialog>
    </>
  );
}

function OrderTable({
  orders,
  onDetails,
  onCancel,
}: {
  orders: Order[];
  onDetails: (order: Order) => void;
  onCancel: (order: Order) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <Paper withBorder>
      <ScrollArea type="auto">
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          striped
          miw={820}
          aria-label={t('orders.caption')}
          data-testid="orders-table"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('orders.columns.no')}</Table.Th>
              <Table.Th scope="col">{t('orders.columns.cycle')}</Table.Th>
              <Table.Th scope="col">{t('orders.columns.amount')}</Table.Th>
              <Table.Th scope="col">{t('orders.columns.status')}</Table.Th>
              <Table.Th scope="col">{t('orders.columns.createdAt')}</Table.Th>
              <Table.Th scope="col">{t('orders.columns.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.map((order) => (
              <Table.Tr key={order.no} data-testid={`order-row-${order.no}`}>
                <Table.Td ff="monospace" fz="sm">
                  {order.no}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{packageTypeText(order.pkgType, REQUEST_LANGUAGE[language])}</Text>
                  <Text size="xs" c="dimmed">
                    {order.pdName}
                  </Text>
                </Table.Td>
                <Table.Td>{formatMoney(order.totalPrice, order.currency, REQUEST_LANGUAGE[language])}</Table.Td>
                <Table.Td>
                  <OrderStatusLabel status={order.status} />
                </Table.Td>
                <Table.Td fz="sm">{formatDateTime(order.createAt)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      disabled={!canOpenDetails(order)}
                      onClick={() => onDetails(order)}
                      aria-label={t('orders.detailsOf', { no: order.no })}
                      data-testid="order-details"
                    >
                      {t('orders.details')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      disabled={!canCancel(order)}
                      onClick={() => onCancel(order)}
                      aria-label={t('orders.cancelOf', { no: order.no })}
                      data-testid="order-cancel"
                    >
                      {t('orders.cancel')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Paper>
  );
}

function OrderCards({ orders, onDetails }: { orders: Order[]; onDetails: (order: Order) => void }) {
  const { language } = useLanguage();
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} data-testid="orders-cards">
      {orders.map((order) => {
        const body = (
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={4} miw={0}>
              <Text fw={600} truncate="end">
                {order.pdName}
              </Text>
              <OrderStatusLabel status={order.status} />
              <Text size="xs" c="dimmed">
                {formatDateTime(order.createAt)}
              </Text>
            </Stack>
            <Group gap="xs" wrap="nowrap">
              <Text fw={700}>{formatMoney(order.totalPrice, order.currency, REQUEST_LANGUAGE[language])}</Text>
              {canOpenDetails(order) ? <ChevronRightIcon size={18} /> : null}
            </Group>
          </Group>
        );
        return (
          <li key={order.no} data-testid={`order-card-${order.no}`}>
            {canOpenDetails(order) ? (
              <UnstyledButton w="100%" onClick={() => onDetails(order)} data-testid="order-card-open">
                <Paper withBorder p="md">
                  {body}
                </Paper>
              </UnstyledButton>
            ) : (
              <Paper withBorder p="md">
                {body}
              </Paper>
            )}
          </li>
        );
      })}
    </Stack>
  );
}
