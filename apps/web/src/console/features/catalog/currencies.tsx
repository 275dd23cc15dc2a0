import { Button, Group, NativeSelect, Stack, Switch, Table, TextInput, Title } from '@mantine/core';
import {
  adminAddCurrency,
  adminSetCurrencyEnabled,
  type CatalogCurrency,
  CURRENCY_DECIMALS_MAX,
} from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../../api';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { catalogStrings } from './i18n';

const DECIMAL_CHOICES = Array.from({ length: CURRENCY_DECIMALS_MAX + 1 }, (_, decimals) => String(decimals));

function AddCurrency({ onAdded }: { onAdded: () => void }) {
  const { t } = useText(catalogStrings);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [decimals, setDecimals] = useState('2');
  const add = useMutation({
    mutationFn: () => consoleCall(adminAddCurrency, { body: { code, name, decimals: Number(decimals) } }),
    onSuccess: () => {
      setCode('');
      setName('');
      onAdded();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="new-currency-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="new-currency-title">
          {t('newCurrency')}
        </Title>
        <ErrorAlert error={add.error} />
        <Group align="flex-end">
          <TextInput
            label={t('code')}
            required
            maxLength={3}
            w={90}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <TextInput label={t('currencyName')} required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <NativeSelect
            label={t('decimals')}
            data={DECIMAL_CHOICES}
            value={decimals}
            onChange={(event) => setDecimals(event.currentTarget.value)}
          />
          <Button type="submit" loading={add.isPending}>
            {t('addCurrency')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Offers the currency at checkout or stops offering it (its prices stay). */
function OfferSwitch({ currency, onChanged }: { currency: CatalogCurrency; onChanged: () => void }) {
  const { t } = useText(catalogStrings);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      consoleCall(adminSetCurrencyEnabled, { params: { code: currency.code }, body: { enabled } }),
    onSuccess: onChanged,
  });
  return (
    <Stack gap={4}>
      <Switch
        checked={currency.enabled}
        disabled={toggle.isPending}
        label={currency.enabled ? t('enabled') : t('disabledCurrency')}
        aria-label={t('offerCurrency', { code: currency.code })}
        onChange={(event) => toggle.mutate(event.currentTarget.checked)}
      />
      <ErrorAlert error={toggle.error} />
    </Stack>
  );
}

/** Every currency, disabled ones too; those who may change the catalogue add one and switch them on and off. */
export function Currencies({
  currencies,
  canWrite,
  onChanged,
}: {
  currencies: CatalogCurrency[];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const { t } = useText(catalogStrings);
  return (
    <Stack component="section" aria-labelledby="currencies-title">
      <Title order={2} id="currencies-title">
        {t('currencies')}
      </Title>
      <ScrollTable
        minWidth={360}
        striped
        labelledBy="currencies-title"
        columns={[t('code'), t('currencyName'), t('decimals'), t('enabled')]}
      >
        {currencies.map((currency) => (
          <Table.Tr key={currency.code}>
            <Table.Td>{currency.code}</Table.Td>
            <Table.Td>{currency.name}</Table.Td>
            <Table.Td>{currency.decimals}</Table.Td>
            <Table.Td>
              {canWrite ? (
                <OfferSwitch currency={currency} onChanged={onChanged} />
              ) : currency.enabled ? (
                t('enabled')
              ) : (
                t('disabledCurrency')
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </ScrollTable>
      {canWrite && <AddCurrency onAdded={onChanged} />}
    </Stack>
  );
}
