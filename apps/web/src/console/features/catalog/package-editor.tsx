import { Button, Fieldset, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  adminAddPackage,
  adminUpdatePackage,
  type CatalogCurrency,
  type CatalogPackage,
  formatGb,
  formatMinor,
  PACKAGE_DAYS_MAX,
  PACKAGE_LABEL_MAX,
  parseGb,
  parseMajor,
} from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../../api';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { catalogStrings } from './i18n';

/** What is typed for one currency: the real price and the old (struck-through) one, in major units. */
type PriceText = { real: string; old: string };

type Price = { currency: string; price: number; real: number };

/** The typed prices in minor units; `errors` names each currency whose text is not an amount it takes. */
function pricesOf(currencies: CatalogCurrency[], texts: Record<string, PriceText>) {
  const prices: Price[] = [];
  const errors = new Set<string>();
  for (const { code, decimals } of currencies) {
    const { real = '', old = '' } = texts[code] ?? {};
    if (real.trim() === '' && old.trim() === '') continue;
    const realMinor = parseMajor(real, decimals);
    const oldMinor = old.trim() === '' ? realMinor : parseMajor(old, decimals);
    if (realMinor === null || oldMinor === null) errors.add(code);
    else prices.push({ currency: code, price: oldMinor, real: realMinor });
  }
  return { prices, errors };
}

/**
 * A package's label, days, traffic (typed in GB, sent in bytes) and a price per currency (typed in major units with
 * the currency's decimals, sent in minor units): exact conversions, no floating point.
 */
export function PackageEditor({
  planId,
  pkg,
  currencies,
  opened,
  onClose,
  onSaved,
}: {
  planId: number;
  /** The package to change; null adds one to the plan. */
  pkg: CatalogPackage | null;
  currencies: CatalogCurrency[];
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useText(catalogStrings);
  const [label, setLabel] = useState(pkg?.label ?? '');
  const [days, setDays] = useState(pkg ? String(pkg.days) : '30');
  const [gb, setGb] = useState(pkg ? formatGb(pkg.trafficBytes) : '');
  const [texts, setTexts] = useState<Record<string, PriceText>>(() =>
    Object.fromEntries(
      (pkg?.prices ?? []).map((price) => [
        price.currency,
        { real: formatMinor(price.real, price.decimals), old: formatMinor(price.price, price.decimals) },
      ]),
    ),
  );
  const [checked, setChecked] = useState(false);
  // The currencies on sale, and any other the package already has a price in.
  const shown = currencies.filter(
    (currency) => currency.enabled || pkg?.prices.some((price) => price.currency === currency.code),
  );
  const trafficBytes = parseGb(gb);
  const dayCount = /^\d{1,5}$/.test(days.trim()) ? Number(days) : Number.NaN;
  const daysValid = dayCount >= 1 && dayCount <= PACKAGE_DAYS_MAX;
  const { prices, errors } = pricesOf(shown, texts);
  const noPrice = pkg === null && prices.length === 0 && errors.size === 0;

  const save = useMutation({
    mutationFn: () => {
      const body = { label, days: dayCount, trafficBytes: trafficBytes ?? 0, prices };
      return pkg
        ? consoleCall(adminUpdatePackage, { params: { id: pkg.id }, body })
        : consoleCall(adminAddPackage, { params: { id: planId }, body });
    },
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (trafficBytes === null || !daysValid || errors.size > 0 || noPrice) return;
    save.mutate();
  };
  const setPrice = (code: string, field: keyof PriceText, value: string) =>
    setTexts({ ...texts, [code]: { real: '', old: '', ...texts[code], [field]: value } });
  const title = pkg ? t('editPackage') : t('addPackage');

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} aria-label={title} noValidate>
        <Stack>
          <ErrorAlert error={save.error} />
          <TextInput
            label={t('label')}
            required
            maxLength={PACKAGE_LABEL_MAX}
            value={label}
            onChange={(event) => setLabel(event.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label={t('days')}
              required
              inputMode="numeric"
              value={days}
              error={checked && !daysValid ? t('badDays') : undefined}
              onChange={(event) => setDays(event.currentTarget.value)}
            />
            <TextInput
              label={t('trafficGb')}
              description={t('trafficGbHint')}
              required
              inputMode="decimal"
              value={gb}
              error={checked && trafficBytes === null ? t('badTraffic') : undefined}
              onChange={(event) => setGb(event.currentTarget.value)}
            />
          </SimpleGrid>
          <Fieldset legend={t('prices')}>
            <Stack gap="sm">
              {shown.map(({ code, decimals }) => (
                <SimpleGrid key={code} cols={{ base: 1, xs: 2 }}>
                  <TextInput
                    label={t('priceIn', { currency: code })}
                    description={t('priceHint', { currency: code, decimals })}
                    inputMode="decimal"
                    value={texts[code]?.real ?? ''}
                    error={checked && errors.has(code) ? t('badAmount', { currency: code, decimals }) : undefined}
                    onChange={(event) => setPrice(code, 'real', event.currentTarget.value)}
                  />
                  <TextInput
                    label={t('oldPriceIn', { currency: code })}
                    inputMode="decimal"
                    value={texts[code]?.old ?? ''}
                    onChange={(event) => setPrice(code, 'old', event.currentTarget.value)}
                  />
                </SimpleGrid>
              ))}
              {checked && noPrice && (
                <Text c="red" size="sm" role="alert">
                  {t('noPrice')}
                </Text>
              )}
            </Stack>
          </Fieldset>
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('save')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
