import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/ThemeIcon.css';
import {
  Box,
  Button,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { type PackageStat, REQUEST_LANGUAGE } from '@mutenet/contract';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CartIcon, ChevronRightIcon } from '../../../components/ui/icons';
import { ScreenLoader } from '../../../components/ui/screen-loader';
import { useLanguage } from '../../../i18n/use-language';
import { formatDateTime } from '../../../lib/dates';
import { formatNumber } from '../../../lib/numbers';
import { usePackageStat } from '../api/get-package-stat';
import { daysRemaining } from '../utils/days-remaining';
import { formatTraffic } from '../utils/format-traffic';

/** The bar turns orange, then red, as the allowance runs out. */
function barColor(pct: number): string {
  if (pct >= 90) return 'red.9';
  if (pct >= 70) return 'orange.9';
  return 'blue.8';
}

/**
 * My subscription (spec section 2): the running package with its expiry, days remaining and traffic, the queued
 * ones after it, or, with none, a tile leading to the shop.
 */
export function SubscriptionOverview({ shopHref }: { shopHref: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const stat = usePackageStat();

  let body: ReactNode;
  if (stat.isPending) {
    body = <ScreenLoader />;
  } else if (stat.isError) {
    body = (
      <Stack align="flex-start" gap="sm">
        <Text>{t('dashboard.subscription.loadFailed')}</Text>
        <Button variant="default" onClick={() => void stat.refetch()}>
          {t('common.retry')}
        </Button>
      </Stack>
    );
  } else {
    const [current, ...queued] = stat.data;
    body = current ? <CurrentPackage current={current} queued={queued} /> : <NoPackage shopHref={shopHref} />;
  }

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" mb="md" id={titleId}>
        {t('dashboard.subscription.title')}
      </Title>
      {body}
    </Paper>
  );
}

function NoPackage({ shopHref }: { shopHref: string }) {
  const { t } = useTranslation();
  return (
    <UnstyledButton component={Link} to={shopHref} w="100%" data-testid="subscription-none">
      <Paper withBorder p="md" bg="var(--mantine-color-blue-light)">
        <Group wrap="nowrap" gap="md">
          <ThemeIcon size={44} radius="xl" variant="white" c="blue.9">
            <CartIcon size={24} />
          </ThemeIcon>
          <Stack gap={2} flex={1} miw={0}>
            <Text fw={700}>{t('dashboard.subscription.none')}</Text>
            <Text size="sm">{t('dashboard.subscription.noneHint')}</Text>
          </Stack>
          <ChevronRightIcon size={20} />
        </Group>
      </Paper>
    </UnstyledButton>
  );
}

function CurrentPackage({ current, queued }: { current: PackageStat; queued: PackageStat[] }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const locale = REQUEST_LANGUAGE[language];
  const pct = Math.min(100, Math.max(0, current.trafficUsedPct));
  const pctText = formatNumber(pct, locale, { maximumFractionDigits: 2 });

  return (
    <Stack gap="md" data-testid="subscription-current">
      <Text fw={700} fz="lg" data-testid="package-name">
        {current.pdName}
      </Text>
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="sm" m={0}>
        <Box>
          <Text component="dt" size="sm" c="dimmed">
            {t('dashboard.subscription.expiresAt')}
          </Text>
          <Text component="dd" m={0} fw={600} data-testid="package-expiry">
            {formatDateTime(current.endAt * 1000)}
          </Text>
        </Box>
        <Box>
          <Text component="dt" size="sm" c="dimmed">
            {t('dashboard.subscription.daysLeft')}
          </Text>
          <Text component="dd" m={0} fw={600} data-testid="package-days">
            {daysRemaining(current.endAt)}
          </Text>
        </Box>
      </SimpleGrid>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" c="dimmed">
            {t('dashboard.subscription.trafficUsed')}
          </Text>
          <Text size="sm" fw={600} data-testid="package-traffic">
            {t('dashboard.subscription.usedOfTotal', {
              used: formatTraffic(current.trafficUsed, locale),
              total: formatTraffic(current.trafficTotal, locale),
            })}{' '}
            ({pctText}%)
          </Text>
        </Group>
        <Progress
          value={pct}
          color={barColor(pct)}
          size="lg"
          aria-label={t('dashboard.subscription.trafficUsed')}
          data-testid="package-traffic-bar"
        />
      </Stack>
      {queued.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('dashboard.subscription.queued')}
          </Title>
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="subscription-queued">
            {queued.map((item) => (
              <Group
                component="li"
                key={`${item.pdName}-${item.startAt}`}
                justify="space-between"
                gap="xs"
                data-testid="queued-package"
              >
                <Text fw={600}>{item.pdName}</Text>
                <Text size="sm">
                  {t('dashboard.subscription.startsAt', { date: formatDateTime(item.startAt * 1000) })}
                </Text>
              </Group>
            ))}
          </Stack>
        </Stack>
      ) : null}
    </Stack>
  );
}
