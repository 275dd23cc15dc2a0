import { Button, Group, NativeSelect, Stack, Table, TextInput, Title } from '@mantine/core';
import { adminAddCurrency, type CatalogCurrency, CURRENCY_DECIMALS_MAX } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../../api';
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

/** Every currency, disabled ones too; those who may change the catalogue add one. */
export function Currencies({
  currencies,
  canWrite,
  onAdded,
}: {
  currencies: CatalogCurrency[];
  canWrite: boolean;
  onAdded: () => void;
}) {
  const { t } = useText(catalogStrings);
  return (
    <Stack component="section" aria-labelledby="currencies-title">
      <Title order={2} id="currencies-title">
        {t('currencies')}
      </Title>
      <Table.ScrollContainer minWidth={360}>
        <Table striped aria-labelledby="currencies-title">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('code')}</Table.Th>
              <Table.Th scope="col">{t('currencyName')}</Table.Th>
              <Table.Th scope="col">{t('decimals')}</Table.Th>
              <Table.Th scope="col">{t('enabled')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {currencies.map((currency) => (
              <Table.Tr key={currency.code}>
                <Table.Td>{currency.code}</Table.Td>
                <Table.Td>{currency.name}</Table.Td>
                <Table.Td>{currency.decimals}</Table.Td>
                <Table.Td>{currency.enabled ? t('enabled') : t('disabledCurrency')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {canWrite && <AddCurrency onAdded={onAdded} />}
    </Stack>
  );
}
