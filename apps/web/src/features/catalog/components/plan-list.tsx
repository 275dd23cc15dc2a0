import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/SimpleGrid.css';
import { Button, Center, Loader, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PLAN_GROUPS, type Plan, type PlanGroup } from '@mutenet/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../i18n/use-language';
import { usePlans } from '../api/get-plans';
import { PlanCard } from './plan-card';

const GROUP_LABEL = { traffic: 'shop.byTraffic', durational: 'shop.byCycle' } as const;

/**
 * The shop's plans (spec section 2): a switch between the groups that have plans (by traffic first), and a card
 * per plan of the chosen group.
 */
export function PlanList({ orderHref }: { orderHref: (plan: Plan) => string }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const plans = usePlans();
  const [chosen, setChosen] = useState<PlanGroup | null>(null);

  if (plans.isPending) {
    return (
      <Center py="xl" role="status">
        <Loader size="md" role="img" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (plans.isError) {
    return (
      <Stack align="flex-start" gap="sm">
        <Text>{t('shop.loadFailed')}</Text>
        <Button variant="default" onClick={() => void plans.refetch()}>
          {t('common.retry')}
        </Button>
      </Stack>
    );
  }

  const groups = PLAN_GROUPS.filter((group) => plans.data[group].length > 0);
  const group = chosen && groups.includes(chosen) ? chosen : groups[0];

  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('shop.lead')}
      </Title>
      {group === undefined ? (
        <Text data-testid="plans-empty">{t('shop.empty')}</Text>
      ) : (
        <>
          <SegmentedControl
            aria-label={t('shop.groupLabel')}
            data={groups.map((value) => ({ value, label: t(GROUP_LABEL[value]) }))}
            value={group}
            onChange={(value) => setChosen(value as PlanGroup)}
            color="blue.9"
            style={{ alignSelf: 'flex-start' }}
            data-testid="plan-group"
          />
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid={`plans-${group}`}>
            {plans.data[group].map((plan) => (
              <PlanCard key={plan.pdId} plan={plan} language={language} orderHref={orderHref(plan)} />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
