import { Anchor, Button, Code, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { adminGetCustomer, type CustomerDetails, type CustomerPackage, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useQuery } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatTraffic } from '../../../features/subscription/utils/format-traffic';
import { copyText } from '../../../lib/clipboard';
import { formatMoney } from '../../../lib/money';
import { formatNumber } from '../../../lib/numbers';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { CustomerActions, customerKey, revokeSession, useCustomerChange } from './customer-actions';
import { useDateFormat, usePermission } from './customer-data';
import { customersStrings } from './i18n';

const STATE_KEY = {
  running: 'stateRunning',
  queued: 'stateQueued',
  expired: 'stateExpired',
  ended: 'stateEnded',
} as const;

function PackageCard({ pkg }: { pkg: CustomerPackage }) {
  const { t, language } = useText(customersStrings);
  const dateFormat = useDateFormat();
  const locale = REQUEST_LANGUAGE[language];
  const plan = pkg.planNames[locale];
  const pct = pkg.trafficTotal > 0 ? Math.min(100, (pkg.trafficUsed / pkg.trafficTotal) * 100) : 0;
  return (
    <Paper withBorder p="sm" component="li">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={700}>{plan}</Text>
          <Text size="sm">{t(STATE_KEY[pkg.state])}</Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('period', { start: dateFormat.format(pkg.startsAt), end: dateFormat.format(pkg.endsAt) })}
        </Text>
        <Group justify="space-between" gap="xs">
          <Text size="sm">{t('usage')}</Text>
          <Text size="sm" fw={600}>
            {t('usedOfTotal', {
              used: formatTraffic(pkg.trafficUsed, locale),
              total: formatTraffic(pkg.trafficTotal, locale),
            })}{' '}
            ({formatNumber(pct, locale, { maximumFractionDigits: 2 })}%)
          </Text>
        </Group>
        <Progress value={pct} color={pct >= 90 ? 'red' : 'blue'} aria-label={t('usageOf', { plan })} />
      </Stack>
    </Paper>
  );
}

function SubscriptionLink({ url }: { url: string }) {
  const { t } = useText(customersStrings);
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <Stack component="section" aria-labelledby="customer-link" gap="xs">
      <Title order={2} size="h3" id="customer-link">
        {t('subscription')}
      </Title>
      <Code block data-testid="subscription-url" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {url}
      </Code>
      <Group>
        <Button variant="default" onClick={() => void copyText(url).then(setCopied)}>
          {copied ? t('copied') : t('copy')}
        </Button>
        <Text size="sm" role="status">
          {copied === false ? t('copyFailed') : ''}
        </Text>
      </Group>
      <QRCodeSVG value={url} size={192} marginSize={2} role="img" aria-label={t('qr')} title={t('qr')} />
    </Stack>
  );
}

function Orders({ orders }: { orders: CustomerDetails['orders'] }) {
  const { t, language } = useText(customersStrings);
  const dateFormat = useDateFormat();
  return (
    <Stack component="section" aria-labelledby="customer-orders" gap="xs">
      <Title order={2} size="h3" id="customer-orders">
        {t('orders')}
      </Title>
      {orders.length === 0 ? (
        <Text>{t('noOrders')}</Text>
      ) : (
        <ScrollTable
          minWidth={520}
          striped
          labelledBy="customer-orders"
          columns={[t('orderNo'), t('orderStatus'), t('amount'), t('gateway'), t('created')]}
        >
          {orders.map((order) => (
            <Table.Tr key={order.no}>
              <Table.Td>
                {/* The Orders screen's page of the order (`orders/<no>` under the console). */}
                <Anchor component={Link} to={`/orders/${encodeURIComponent(order.no)}`}>
                  {order.no}
                </Anchor>
              </Table.Td>
              <Table.Td>{order.status}</Table.Td>
              <Table.Td>{formatMoney(order.amount, order.currency, REQUEST_LANGUAGE[language])}</Table.Td>
              <Table.Td>{order.gateway ?? '—'}</Table.Td>
              <Table.Td>{dateFormat.format(order.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
    </Stack>
  );
}

function Sessions({ details, ask }: { details: CustomerDetails; ask: ReturnType<typeof useCustomerChange>['ask'] }) {
  const { t } = useText(customersStrings);
  const dateFormat = useDateFormat();
  const mayRevoke = usePermission('customers.revokeSession');
  return (
    <Stack component="section" aria-labelledby="customer-sessions" gap="xs">
      <Title order={2} size="h3" id="customer-sessions">
        {t('sessions')}
      </Title>
      {details.sessions.length === 0 ? (
        <Text>{t('noSessions')}</Text>
      ) : (
        <ScrollTable
          minWidth={420}
          striped
          labelledBy="customer-sessions"
          columns={[t('created'), t('expires'), mayRevoke && t('actions')]}
        >
          {details.sessions.map((session) => {
            const when = dateFormat.format(session.createdAt);
            return (
              <Table.Tr key={session.id}>
                <Table.Td>{when}</Table.Td>
                <Table.Td>{dateFormat.format(session.expiresAt)}</Table.Td>
                {mayRevoke && (
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={t('revokeOf', { when })}
                      onClick={() =>
                        ask(revokeSession(details.account.id, session.id, t('revoke'), t('revokeConfirm')))
                      }
                    >
                      {t('revoke')}
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </ScrollTable>
      )}
    </Stack>
  );
}

/** One customer: the account, packages with their usage, recent orders, sessions, the link and the actions. */
export function CustomerPage() {
  const { t } = useText(customersStrings);
  const dateFormat = useDateFormat();
  const id = Number(useParams().id);
  const details = useQuery({
    queryKey: customerKey(id),
    queryFn: () => consoleCall(adminGetCustomer, { params: { id } }),
  });
  const { pending, ask, change, done, close } = useCustomerChange(id);
  const data = details.data;

  return (
    <Stack>
      <Anchor component={Link} to=".." relative="path" size="sm">
        {t('back')}
      </Anchor>
      {/* An email is one long word: it wraps anywhere rather than widen a phone's page. */}
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {data ? data.account.email : t('title')}
      </Title>
      <ErrorAlert error={details.error} />
      <Text role="status" size="sm">
        {done ? t('done') : ''}
      </Text>
      {data && (
        <>
          <Stack component="section" aria-labelledby="customer-account" gap="xs">
            <Title order={2} size="h3" id="customer-account">
              {t('account')}
            </Title>
            <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" m={0}>
              {[
                [t('id'), String(data.account.id)],
                [t('name'), data.account.name],
                [t('state'), data.account.banned ? t('banned') : t('active')],
                [t('joined'), dateFormat.format(data.account.createdAt)],
              ].map(([term, value]) => (
                <div key={term}>
                  <Text component="dt" size="sm" c="dimmed">
                    {term}
                  </Text>
                  <Text component="dd" m={0} fw={600}>
                    {value}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          </Stack>
          <CustomerActions account={data.account} ask={ask} />
          <Stack component="section" aria-labelledby="customer-packages" gap="xs">
            <Title order={2} size="h3" id="customer-packages">
              {t('packages')}
            </Title>
            {data.packages.length === 0 ? (
              <Text>{t('noPackages')}</Text>
            ) : (
              <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
                {data.packages.map((pkg) => (
                  <PackageCard key={pkg.id} pkg={pkg} />
                ))}
              </Stack>
            )}
          </Stack>
          <Orders orders={data.orders} />
          <Sessions details={data} ask={ask} />
          <SubscriptionLink url={data.subscriptionUrl} />
        </>
      )}
      <ConfirmDialog
        opened={pending !== null}
        title={pending?.label ?? ''}
        message={pending?.message}
        confirmLabel={pending?.label ?? ''}
        loading={change.isPending}
        error={change.error}
        onConfirm={() => pending && change.mutate(pending)}
        onClose={close}
      />
    </Stack>
  );
}
