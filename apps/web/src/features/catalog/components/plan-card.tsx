import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Title.css';
import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { type Language, type Plan, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SafeHtml } from '../../../components/ui/safe-html';
import { packageTypeText } from '../../../i18n/package-types';
import { displayPrice } from '../utils/display-price';
import { PriceTag } from './price-tag';

/** One plan of the shop: its first package's price and type, its description, and the way to order it. */
export function PlanCard({ plan, language, orderHref }: { plan: Plan; language: Language; orderHref: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const first = plan.packages[0];
  const shown = first ? displayPrice(first, language) : undefined;

  return (
    <Card withBorder padding="lg" component="article" aria-labelledby={titleId} data-testid="plan-card">
      <Stack gap="sm" h="100%">
        <Title order={3} size="h4" id={titleId} data-testid="plan-name">
          {plan.pdName}
        </Title>
        {shown ? (
          <PriceTag
            price={shown.price}
            currency={shown.currency}
            language={REQUEST_LANGUAGE[language]}
            testId="plan-price"
          />
        ) : (
          <Text c="dimmed">{t('shop.noPrice')}</Text>
        )}
        {first ? (
          <Text size="sm" fw={600} data-testid="plan-package">
            {t('shop.packageType')}: {packageTypeText(first.pkgType, REQUEST_LANGUAGE[language])}
          </Text>
        ) : null}
        <SafeHtml html={plan.content} fz="sm" flex={1} data-testid="plan-content" />
        <Button
          component={Link}
          to={orderHref}
          fullWidth
          aria-label={t('shop.orderPlan', { name: plan.pdName })}
          data-testid="plan-order"
        >
          {t('shop.order')}
        </Button>
      </Stack>
    </Card>
  );
}
