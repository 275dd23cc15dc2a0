import { Anchor, Checkbox, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { adminGetCustomers } from '@mutenet/contract';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { consoleCall } from '../../api';
import { MoreButton } from '../../components/more-button';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { CUSTOMERS_KEY, useDateFormat } from './customer-data';
import { customersStrings } from './i18n';

/** Typing settles this long before the search is sent (and written into the address). */
const SEARCH_DELAY_MS = 300;

/**
 * The search as the address holds it (`?search=…&banned=true`), so that reload, back and forward keep it. The box
 * follows the address when it changes by navigation; the address follows the box once typing settles, replacing the
 * entry rather than adding one per keystroke.
 */
function useSearchInAddress() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const banned = params.get('banned') === 'true';
  const [draft, setDraft] = useState(search);
  const [settled] = useDebouncedValue(draft, SEARCH_DELAY_MS);
  const written = useRef(search);
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    setDraft(search);
  }, [search]);
  useEffect(() => {
    if (settled === written.current) return;
    written.current = settled;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (settled) next.set('search', settled);
        else next.delete('search');
        return next;
      },
      { replace: true },
    );
  }, [settled, setParams]);
  const setBanned = (value: boolean) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set('banned', 'true');
      else next.delete('banned');
      return next;
    });
  return { search: search.trim(), banned, draft, setDraft, setBanned };
}

/** Every customer, newest first, searched by email, name or id, a page at a time from the server. */
export function CustomerList() {
  const { t } = useText(customersStrings);
  const dateFormat = useDateFormat();
  const { search, banned, draft, setDraft, setBanned } = useSearchInAddress();
  const list = useInfiniteQuery({
    queryKey: [...CUSTOMERS_KEY, 'list', { search, banned }],
    queryFn: ({ pageParam }) =>
      consoleCall(adminGetCustomers, {
        query: { search: search || undefined, banned: banned ? 'true' : undefined, cursor: pageParam },
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    // The rows of the last search stay while the next one loads, rather than the table blinking out.
    placeholderData: keepPreviousData,
  });
  const customers = list.data?.pages.flatMap((page) => page.customers) ?? [];

  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <Group align="flex-end" role="search">
        <TextInput
          type="search"
          label={t('search')}
          placeholder={t('searchHint')}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          maxLength={254}
          w={{ base: '100%', xs: 320 }}
        />
        <Checkbox
          label={t('bannedOnly')}
          checked={banned}
          onChange={(event) => setBanned(event.currentTarget.checked)}
          mb={8}
        />
      </Group>
      <ErrorAlert error={list.error} />
      <Text size="sm" c="dimmed" aria-live="polite">
        {list.isSuccess && (customers.length === 0 ? t('none') : t('results', { count: customers.length }))}
      </Text>
      {customers.length > 0 && (
        <ScrollTable
          minWidth={560}
          striped
          label={t('title')}
          columns={[t('id'), t('email'), t('name'), t('state'), t('joined')]}
        >
          {customers.map((customer) => (
            <Table.Tr key={customer.id}>
              <Table.Td>{customer.id}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={String(customer.id)}>
                  {customer.email}
                </Anchor>
              </Table.Td>
              <Table.Td>{customer.name}</Table.Td>
              <Table.Td>{customer.banned ? t('banned') : t('active')}</Table.Td>
              <Table.Td>{dateFormat.format(customer.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
      <MoreButton pages={list} label={t('more')} />
    </Stack>
  );
}
