import '@mantine/charts/styles.css';
import { AreaChart, BarsList } from '@mantine/charts';
import { Card, Group, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { adminGetOverview, type Overview, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useMemo } from 'react';
import { formatTraffic } from '../../../features/subscription/utils/format-traffic';
import { ORDER_STATUS_LABELS } from '../../../i18n/order-statuses';
import { consoleCall } from '../../api';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { formatRevenue } from './format';
import { overviewStrings } from './i18n';

export const OVERVIEW_KEY = ['console', 'overview'] as const;
/** How often the figures are fetched again while the screen is open (not while the tab is hidden). */
const REFRESH_MS = 30_000;

function useOverviewText() {
  const { t, language } = useText(overviewStrings);
  const locale = REQUEST_LANGUAGE[language];
  // The server counts in UTC days: a day is labelled as the UTC date it began on, whatever the operator's zone.
  const dayFormat = useMemo(
    () => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    [locale],
  );
  const bytes = (value: number) => formatTraffic(value, locale);
  return { t, locale, dayFormat, bytes };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** A figure per window (today, 7 days, 30 days), as a description list. */
function Windows({ values }: { values: { today: ReactNode; days7: ReactNode; days30: ReactNode } }) {
  const { t } = useText(overviewStrings);
  return (
    <Group component="dl" gap="lg" m={0}>
      {(['today', 'days7', 'days30'] as const).map((window) => (
        <div key={window}>
          <Text component="dt" size="sm" c="dimmed">
            {t(window)}
          </Text>
          <Text component="dd" m={0} fw={700} size="xl">
            {values[window]}
          </Text>
        </div>
      ))}
    </Group>
  );
}

function Revenue({ revenue }: { revenue: Overview['revenue'] }) {
  const { t, locale } = useOverviewText();
  if (revenue.length === 0) return <Text>{t('revenueNone')}</Text>;
  return (
    <Table aria-label={t('revenue')} data-testid="overview-revenue">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('currency')}</Table.Th>
          <Table.Th scope="col">{t('today')}</Table.Th>
          <Table.Th scope="col">{t('days7')}</Table.Th>
          <Table.Th scope="col">{t('days30')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {revenue.map((row) => (
          <Table.Tr key={row.currency}>
            <Table.Th scope="row">{row.currency}</Table.Th>
            {(['today', 'days7', 'days30'] as const).map((window) => (
              <Table.Td key={window}>{formatRevenue(row[window], row.currency, locale)}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function OrdersByStatus({ counts }: { counts: Overview['ordersByStatus'] }) {
  const { t, locale } = useOverviewText();
  const rows = Object.entries(counts).filter(([, count]) => count > 0) as [keyof typeof counts, number][];
  if (rows.length === 0) return <Text>{t('ordersNone')}</Text>;
  return (
    <Table aria-label={t('ordersByStatus')} data-testid="overview-orders">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('status')}</Table.Th>
          <Table.Th scope="col">{t('orders')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(([status, count]) => (
          <Table.Tr key={status}>
            <Table.Th scope="row" fw={400}>
              {ORDER_STATUS_LABELS[locale][status]}
            </Table.Th>
            <Table.Td>{count}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The chart is for the eye; the table under it (read by screen readers, not shown) holds the same figures. */
function TrafficByDay({ days }: { days: Overview['trafficByDay'] }) {
  const { t, dayFormat, bytes } = useOverviewText();
  const data = days.map((day) => ({ ...day, label: dayFormat.format(day.day) }));
  const busiest = data.reduce<(typeof data)[number] | undefined>(
    (top, day) => (!top || day.upload + day.download > top.upload + top.download ? day : top),
    undefined,
  );
  if (!busiest || busiest.upload + busiest.download === 0) return <Text>{t('trafficNone')}</Text>;
  const total = data.reduce((sum, day) => sum + day.upload + day.download, 0);
  return (
    <>
      <Text size="sm">
        {t('trafficByDaySummary', {
          total: bytes(total),
          day: busiest.label,
          busiest: bytes(busiest.upload + busiest.download),
        })}
      </Text>
      <div aria-hidden="true">
        <AreaChart
          h={240}
          data={data}
          dataKey="label"
          type="stacked"
          withLegend
          valueFormatter={bytes}
          areaChartProps={{ accessibilityLayer: false }}
          series={[
            { name: 'download', label: t('download'), color: 'blue.7' },
            { name: 'upload', label: t('upload'), color: 'teal.7' },
          ]}
        />
      </div>
      <VisuallyHidden>
        <table>
          <caption>{t('trafficByDay')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('day')}</th>
              <th scope="col">{t('download')}</th>
              <th scope="col">{t('upload')}</th>
            </tr>
          </thead>
          <tbody>
            {data.map((day) => (
              <tr key={day.day}>
                <th scope="row">{day.label}</th>
                <td>{bytes(day.download)}</td>
                <td>{bytes(day.upload)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </>
  );
}

function TrafficByNode({ nodes }: { nodes: Overview['trafficByNode'] }) {
  const { t, bytes } = useOverviewText();
  if (nodes.length === 0) return <Text>{t('trafficNone')}</Text>;
  const rows = nodes.map((node) => ({
    ...node,
    label: node.name ?? t('removedNode', { id: node.nodeId }),
    total: node.upload + node.download,
  }));
  return (
    <>
      <div aria-hidden="true">
        <BarsList
          data={rows.map((node) => ({ name: node.label, value: node.total }))}
          valueFormatter={bytes}
          barsLabel={t('node')}
          valueLabel={t('total')}
          barColor="blue.1"
          barTextColor="dark.9"
        />
      </div>
      <VisuallyHidden>
        <table>
          <caption>{t('trafficByNode')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('node')}</th>
              <th scope="col">{t('total')}</th>
              <th scope="col">{t('download')}</th>
              <th scope="col">{t('upload')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((node) => (
              <tr key={node.nodeId}>
                <th scope="row">{node.label}</th>
                <td>{bytes(node.total)}</td>
                <td>{bytes(node.download)}</td>
                <td>{bytes(node.upload)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </>
  );
}

/** How the business and the network are doing: the figures of the last 30 days, fetched again while open. */
export default function OverviewScreen() {
  const { t, locale } = useOverviewText();
  const overview = useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: () => consoleCall(adminGetOverview),
    refetchInterval: REFRESH_MS,
  });
  const data = overview.data;
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <Text size="sm" c="dimmed">
        {t('refreshes')}
        {overview.dataUpdatedAt > 0 && ` ${t('updated', { time: time.format(overview.dataUpdatedAt) })}`}
      </Text>
      <ErrorAlert error={overview.error} />
      {data && (
        <>
          <Section title={t('revenue')}>
            <Revenue revenue={data.revenue} />
          </Section>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Section title={t('newCustomers')}>
              <Windows values={data.newCustomers} />
            </Section>
            <Section title={t('runningSubscriptions')}>
              <Text fw={700} size="xl" data-testid="overview-running">
                {data.runningSubscriptions}
              </Text>
              <Text size="sm" c="dimmed">
                {t('runningHint')}
              </Text>
            </Section>
            <Section title={t('nodes')}>
              <Group component="dl" gap="lg" m={0} data-testid="overview-nodes">
                {(['online', 'offline'] as const).map((state) => (
                  <div key={state}>
                    <Text component="dt" size="sm" c="dimmed">
                      {t(state)}
                    </Text>
                    <Text component="dd" m={0} fw={700} size="xl">
                      {data.nodes[state]}
                    </Text>
                  </div>
                ))}
              </Group>
            </Section>
          </SimpleGrid>
          <Section title={t('ordersByStatus')}>
            <OrdersByStatus counts={data.ordersByStatus} />
          </Section>
          <Section title={t('trafficByDay')}>
            <TrafficByDay days={data.trafficByDay} />
          </Section>
          <Section title={t('trafficByNode')}>
            <TrafficByNode nodes={data.trafficByNode} />
          </Section>
        </>
      )}
    </Stack>
  );
}
