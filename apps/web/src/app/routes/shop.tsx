import '@mantine/core/styles/Title.css';
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PlanList } from '../../features/catalog/components/plan-list';
import { encodeProduct } from '../../features/catalog/utils/product-param';
import { PATHS } from '../../lib/paths';
import { inMode, useUrlOptions } from '../use-url-options';

/** The shop: each plan's order button leads to the configure screen with the plan in its path. */
export default function ShopRoute() {
  const { t } = useTranslation();
  const { mobile } = useUrlOptions();
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('nav.purchase')}
      </Title>
      <PlanList orderHref={(plan) => inMode(`${PATHS.shopConfigure}/${encodeProduct(plan)}`, mobile)} />
    </Stack>
  );
}
