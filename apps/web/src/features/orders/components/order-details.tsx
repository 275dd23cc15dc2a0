import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/ThemeIcon.css';
import { Box, Button, Center, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { type Order, type OrderStatus, REQUEST_LANGUAGE } from '@mutenet/contract';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { packageTypeText } from '../../../i18n/package-types';
import type { Resources } from '../../../i18n/resources/en';
import { useLanguage } from '../../../i18n/use-language';
import { formatDateTime } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { useOrder } from '../api/get-order';
import { OrderStatusLabel, STATUS_LOOK } from './order-status';

type BannerKey = keyof Resources['details']['banner'];

/** Spec section 4: the banner of each status. */
export const STATUS_BANNER: Record<OrderStatus, BannerKey> = {
  success: 'success',
  timeout: 'timeout',
  cancel: 'cancelled',
  close: 'cancelled',
  failed: 'failed',
  unused: 'unknown',
  rejected: 'chargeback',
  doing: 'inProcess',
  paying: 'paying',
  waiting: 'paying',
  refunded: 'refunded',
};

export type OrderDetailsProps = {
  orderNo: string;
  /** The View tutorial button of a paid order; not in mobile mode (spec section 2). */
  tutorialHref: string | null;
  ordersHref: string;
  /** Opens the payment page again for an order still to be paid. */
  onPay: (order: Order) => void;
};

/** The order details (spec sections 2 and 4): polled until final, with a banner for its status. */
export function OrderDetails({ orderNo, tutorialHref, ordersHref, onPay }: OrderDetailsProps) {
  const { t } = useTranslation();
  const order = useOrder(orderNo);

  if (order.isPending) {
    return (
      <Center py="xl" role="status">
        <Loader size="md" role="img" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (order.isError && order.data === undefined) {
    return (
      <Stack align="flex-start" gap="sm">
        <Text>{t('details.loadFailed')}</Text>
        <Button variant="default" onClick={() => void order.refetch()}>
          {t('common.retry')}
        </Button>
      </Stack>
    );
  }
  if (!order.data) {
    return (
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} data-testid="order-not-found">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h3">
            {t('details.notFoundTitle')}
          </Title>
          <Text>{t('details.notFoundText', { no: orderNo })}</Text>
          <Button component={Link} to={ordersHref} variant="default">
            {t('details.backToOrders')}
          </Button>
        </Stack>
      </Paper>
    );
  }
  return <OrderSheet order={order.data} tutorialHref={tutorialHref} onPay={onPay} />;
}

function OrderSheet({
  order,
  tutorialHref,
  onPay,
}: {
  order: Order;
  tutorialHref: string | null;
  onPay: (order: Order) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { icon: Icon, color } = STATUS_LOOK[order.status];
  const banner = STATUS_BANNER[order.status];
  const hint =
    banner === 'paying' ? t('details.hint.paying') : banner === 'inProcess' ? t('details.hint.inProcess') : null;

  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} data-testid="order-banner" data-status={order.status}>
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={44} radius="xl" variant="light" color={color.split('.')[0]} c={color}>
            <Icon size={26} />
          </ThemeIcon>
          <Stack gap="xs" flex={1} miw={0}>
            {/* Polite: a change the polling brings (paying to paid, say) is read out. */}
            <Text fw={700} fz="lg" role="status" data-testid="order-banner-text">
              {t(`details.banner.${banner}`)}
            </Text>
            {hint ? <Text size="sm">{hint}</Text> : null}
            {order.status === 'success' && tutorialHref ? (
              <div>
                <Button component={Link} to={tutorialHref} data-testid="view-tutorial">
                  {t('details.viewTutorial')}
                </Button>
              </div>
            ) : null}
            {order.status === 'waiting' || order.status === 'paying' ? (
              <div>
                <Button onClick={() => onPay(order)} data-testid="pay-now">
                  {t('details.payNow')}
                </Button>
              </div>
            ) : null}
          </Stack>
        </Group>
      </Paper>

      <InfoSection title={t('details.commodity')} testId="order-commodity">
        <InfoRow label={t('details.productName')}>{order.pdName}</InfoRow>
        <InfoRow label={t('details.type')}>{packageTypeText(order.pkgType, REQUEST_LANGUAGE[language])}</InfoRow>
        <InfoRow label={t('details.amount')}>
          {formatMoney(order.totalPrice, order.currency, REQUEST_LANGUAGE[language])}
        </InfoRow>
      </InfoSection>

      <InfoSection title={t('details.orderInfo')} testId="order-info">
        <InfoRow label={t('details.orderNo')}>
          <Text component="span" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {order.no}
          </Text>
        </InfoRow>
        <InfoRow label={t('details.createdAt')}>{formatDateTime(order.createAt)}</InfoRow>
        <InfoRow label={t('orders.columns.status')}>
          <OrderStatusLabel status={order.status} size="md" justify="flex-end" />
        </InfoRow>
      </InfoSection>
    </Stack>
  );
}

function InfoSection({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId} data-testid={testId}>
      <Title order={2} size="h4" id={titleId} mb="sm">
        {title}
      </Title>
      <Box component="dl" m={0}>
        {children}
      </Box>
    </Paper>
  );
}

function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group component="div" justify="space-between" gap="md" py={6} wrap="nowrap" align="flex-start">
      <Text component="dt" c="dimmed">
        {label}
      </Text>
      <Box component="dd" m={0} ta="end" fw={500} miw={0}>
        {children}
      </Box>
    </Group>
  );
}
