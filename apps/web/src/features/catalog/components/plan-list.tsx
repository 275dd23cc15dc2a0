import '@mantine/core/styles/SimpleGrid.css';
import './plan-list.css';
import { Button, Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PLAN_GROUPS, type Plan, type PlanGroup } from '@mutenet/contract';
import { useDeferredValue, useId, useState } from 'react';
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
  // The cards render in the background when the plans arrive, in slices that leave the main thread free, rather
  // than in the one blocking render a query's answer triggers.
  const data = useDeferredValue(plans.data);
  const [chosen, setChosen] = useState<PlanGroup | null>(null);
  const radioName = useId();

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
  if (!data) {
    return (
      <Center py="xl" role="status">
        <Loader size="md" role="img" aria-label={t('app.loading')} />
      </Center>
    );
  }

  const groups = PLAN_GROUPS.filter((group) => data[group].length > 0);
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
          <div role="radiogroup" aria-label={t('shop.groupLabel')} className="plan-group" data-testid="plan-group">
            {groups.map((value) => (
              <label key={value} className="plan-group__option">
                <input
                  type="radio"
                  name={radioName}
                  value={value}
                  checked={value === group}
                  onChange={() => setChosen(value)}
                  className="plan-group__input"
                />
                <span className="plan-group__label">{t(GROUP_LABEL[value])}</span>
              </label>
            ))}
          </div>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid={`plans-${group}`}>
            {data[group].map((plan) => (
              <PlanCard key={plan.pdId} plan={plan} language={language} orderHref={orderHref(plan)} />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
