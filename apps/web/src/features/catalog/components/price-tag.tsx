import '@mantine/core/styles/VisuallyHidden.css';
import { Group, Text, VisuallyHidden } from '@mantine/core';
import type { Price, RequestLanguage } from '@mutenet/contract';
import { useTranslation } from 'react-i18next';
import { formatMoney, moneyDecimals } from '../../../lib/money';

/** The price charged, large, and the old one struck through beside it (each named for screen readers). */
export function PriceTag({
  price,
  currency,
  language,
  size = 'xl',
  testId,
}: {
  price: Price;
  currency: string;
  language: RequestLanguage;
  size?: 'lg' | 'xl';
  testId?: string;
}) {
  const { t } = useTranslation();
  // Both with the same decimals: `$6.00` beside `$4.99`, not `$6`.
  const decimals = moneyDecimals(price.real, price.price);
  return (
    <Group gap="xs" align="baseline" wrap="wrap" data-testid={testId}>
      <Text component="span" fz={size === 'xl' ? 28 : 22} fw={700} lh={1.2} data-testid={testId && `${testId}-real`}>
        <VisuallyHidden>{t('shop.price')}: </VisuallyHidden>
        {formatMoney(price.real, currency, language, decimals)}
      </Text>
      {price.price !== price.real ? (
        <Text component="s" td="line-through" c="dimmed" fz="md" data-testid={testId && `${testId}-old`}>
          <VisuallyHidden>{t('shop.originalPrice')}: </VisuallyHidden>
          {formatMoney(price.price, currency, language, decimals)}
        </Text>
      ) : null}
    </Group>
  );
}
