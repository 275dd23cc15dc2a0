import '@mantine/core/styles/Title.css';
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NoticeBanner } from '../../features/notice/components/notice-banner';
import { SubscriptionOverview } from '../../features/subscription/components/subscription-overview';
import { SubscriptionShortcuts } from '../../features/subscription/components/subscription-shortcuts';
import { PATHS } from '../../lib/paths';
import { inMode, useUrlOptions } from '../use-url-options';

/** The dashboard, `/pannel/:from?/:lang?`: the notice, my subscription and the shortcuts; links keep mobile mode. */
export default function DashboardRoute() {
  const { t } = useTranslation();
  const { mobile } = useUrlOptions();
  const shopHref = inMode(PATHS.shop, mobile);
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('nav.dashboard')}
      </Title>
      <NoticeBanner />
      <SubscriptionOverview shopHref={shopHref} />
      <SubscriptionShortcuts tutorialHref={inMode(PATHS.knowledgeBase, mobile)} shopHref={shopHref} />
    </Stack>
  );
}
