import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/RadioCard.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/SimpleGrid.css';
import { Box, Button, Group, Loader, Paper, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type Product, REQUEST_LANGUAGE } from '@mutenet/contract';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WarningAlert } from '../../../components/ui/warning-alert';
import { packageTypeText } from '../../../i18n/package-types';
import { useLanguage } from '../../../i18n/use-language';
import { formatAmount, formatMoney } from '../../../lib/money';
import { toastWarning } from '../../../lib/notify';
import { useCurrencies } from '../api/get-currencies';
import { PriceTag } from './price-tag';

/** What an order is placed for; null while it cannot be placed (no currency yet, or no price in it). */
export type OrderSelection = { pkgId: number; currency: string };

/**
 * The configure screen's body (spec section 2): the product at the chosen price, a currency and a cycle picker,
 * the discount code, and the summary. Placing the order is the caller's (`renderPlaceOrder`), which gets the
 * selection once the currencies have loaded.
 */
export function ProductConfigurator({
  product,
  renderPlaceOrder,
}: {
  product: Product;
  renderPlaceOrder: (selection: OrderSelection | null) => ReactNode;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const requestLanguage = REQUEST_LANGUAGE[language];
  const currencies = useCurrencies();
  const [currencyCode, setCurrencyCode] = useState<string | null>(null);
  const [pkgId, setPkgId] = useState(product.packages[0]?.pkgId);
  const [discountCode, setDiscountCode] = useState('');
  const productTitleId = useId();
  const summaryTitleId = useId();

  const list = currencies.data ?? [];
  const currency = list.find((candidate) => candidate.code === currencyCode) ?? list[0];
  const pkg = product.packages.find((candidate) => candidate.pkgId === pkgId) ?? product.packages[0];
  const price = currency && pkg ? pkg.prices[currency.code] : undefined;
  const typeOf = (shown: { pkgType: string }) => packageTypeText(shown.pkgType, requestLanguage);
  const selection: OrderSelection | null =
    currency && pkg && price ? { pkgId: pkg.pkgId, currency: currency.code } : null;

  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={productTitleId}>
        <Stack gap="xs">
          <Title order={2} size="h3" id={productTitleId} data-testid="product-name">
            {product.pdName}
          </Title>
          {price && currency ? (
            <PriceTag price={price} currency={currency.code} language={requestLanguage} testId="selected-price" />
          ) : null}
          {pkg ? (
            <Text data-testid="selected-cycle">
              {t('configure.cycle')}: {typeOf(pkg)}
            </Text>
          ) : null}
        </Stack>
      </Paper>

      <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="lg">
          {currencies.isPending ? (
            <Group gap="sm" role="status">
              <Loader size="sm" />
              <Text>{t('app.loading')}</Text>
            </Group>
          ) : list.length === 0 ? (
            <WarningAlert testId="no-currencies">{t('configure.noCurrencies')}</WarningAlert>
          ) : (
            <Radio.Group
              label={t('configure.currency')}
              value={currency?.code ?? null}
              onChange={setCurrencyCode}
              name="currency"
            >
              <Group gap="sm" mt="xs">
                {list.map((option) => (
                  <Radio
                    key={option.code}
                    value={option.code}
                    label={`${option.code} · ${option.name}`}
                    data-testid={`currency-${option.code}`}
                  />
                ))}
              </Group>
            </Radio.Group>
          )}

          <Radio.Group
            label={t('configure.cycle')}
            value={pkg ? String(pkg.pkgId) : null}
            onChange={(value) => setPkgId(Number(value))}
            name="cycle"
          >
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" mt="xs">
              {product.packages.map((option) => {
                const optionPrice = currency ? option.prices[currency.code] : undefined;
                return (
                  <Radio.Card
                    key={option.pkgId}
                    value={String(option.pkgId)}
                    p="md"
                    radius="md"
                    data-testid={`cycle-${option.pkgId}`}
                  >
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Radio.Indicator />
                      {/* May narrow below its longest word, which then breaks (global.css): an operator's label. */}
                      <Box miw={0}>
                        <Text fw={600}>{typeOf(option)}</Text>
                        <Text size="sm">
                          {optionPrice && currency
                            ? formatMoney(optionPrice.real, currency.code, requestLanguage)
                            : currency
                              ? t('configure.notInCurrency', { currency: currency.code })
                              : ''}
                        </Text>
                      </Box>
                    </Group>
                  </Radio.Card>
                );
              })}
            </SimpleGrid>
          </Radio.Group>

          <form
            onSubmit={(event) => {
              event.preventDefault();
              // Spec section 5: there are no discount codes yet; Verify always warns and calls nothing.
              toastWarning(t('notice.invalidDiscountCode'));
            }}
          >
            <Group align="flex-end" gap="sm" wrap="nowrap">
              <TextInput
                label={t('configure.discountCode')}
                value={discountCode}
                onChange={(event) => setDiscountCode(event.currentTarget.value)}
                autoComplete="off"
                flex={1}
                maw={320}
                data-testid="discount-code"
              />
              <Button type="submit" variant="default" data-testid="verify-discount">
                {t('configure.verify')}
              </Button>
            </Group>
          </form>
        </Stack>
      </Paper>

      <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={summaryTitleId}>
        <Stack gap="sm">
          <Title order={2} size="h4" id={summaryTitleId}>
            {t('configure.summary')}
          </Title>
          <SummaryRow label={t('configure.product')} testId="summary-product">
            {pkg ? t('configure.productTimesCycle', { product: product.pdName, cycle: typeOf(pkg) }) : product.pdName}
          </SummaryRow>
          <SummaryRow label={t('configure.price')} testId="summary-price">
            {price && currency ? formatMoney(price.real, currency.code, requestLanguage) : '—'}
          </SummaryRow>
          <SummaryRow label={t('configure.total')} testId="summary-total" strong>
            {price && currency ? `${formatAmount(price.real, requestLanguage)} ${currency.code}` : '—'}
          </SummaryRow>
          {currency && pkg && !price ? (
            <Text c="red.9" size="sm">
              {t('configure.notInCurrency', { currency: currency.code })}
            </Text>
          ) : null}
          {renderPlaceOrder(selection)}
        </Stack>
      </Paper>
    </Stack>
  );
}

function SummaryRow({
  label,
  children,
  strong,
  testId,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
  testId: string;
}) {
  return (
    <Group justify="space-between" gap="md" wrap="nowrap" align="flex-start">
      <Text c="dimmed">{label}</Text>
      <Text ta="end" fw={strong ? 700 : 500} fz={strong ? 'lg' : undefined} miw={0} data-testid={testId}>
        {children}
      </Text>
    </Group>
  );
}
