import { Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { adminGetOperators, getAuditLog } from '@mutenet/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../../api';
import { MoreButton } from '../../components/more-button';
import { ScrollTable } from '../../components/scroll-table';
import { dateTimeFormat } from '../../dates';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { AuditChanges } from './changes';
import { auditStrings } from './i18n';

type Filters = { operatorId: string; action: string; targetType: string; targetId: string; from: string; to: string };
const NO_FILTERS: Filters = { operatorId: '', action: '', targetType: '', targetId: '', from: '', to: '' };

/** The filters as the API takes them: dates are whole local days, `to` included (the API's `to` is exclusive). */
function queryOf(filters: Filters) {
  return {
    operatorId: filters.operatorId || undefined,
    action: filters.action.trim() || undefined,
    targetType: filters.targetType.trim() || undefined,
    targetId: filters.targetId.trim() || undefined,
    from: filters.from ? dayjs(filters.from).startOf('day').valueOf() : undefined,
    to: filters.to ? dayjs(filters.to).add(1, 'day').startOf('day').valueOf() : undefined,
  };
}

/** Owners: every change operators made, newest first, filtered, a page at a time ("show more"). */
export default function AuditScreen() {
  const { t, language } = useText(auditStrings);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const operators = useQuery({ queryKey: ['console', 'operators'], queryFn: () => consoleCall(adminGetOperators) });
  const log = useInfiniteQuery({
    queryKey: ['console', 'audit', filters],
    queryFn: ({ pageParam }) => consoleCall(getAuditLog, { query: { ...queryOf(filters), cursor: pageParam } }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  const field = (name: keyof Filters) => ({
    value: draft[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setDraft((current) => ({ ...current, [name]: value }));
    },
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  const dateFormat = dateTimeFormat(language, 'medium');

  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <form onSubmit={apply} aria-label={t('filters')}>
        <Group align="flex-end">
          <NativeSelect
            label={t('operator')}
            data={[
              { value: '', label: t('anyOperator') },
              ...(operators.data?.operators ?? []).map((operator) => ({
                value: String(operator.id),
                label: operator.email,
              })),
            ]}
            {...field('operatorId')}
          />
          <TextInput label={t('action')} placeholder={t('actionHint')} {...field('action')} />
          <TextInput label={t('targetType')} {...field('targetType')} />
          <TextInput label={t('targetId')} {...field('targetId')} />
          <TextInput label={t('from')} type="date" {...field('from')} />
          <TextInput label={t('to')} type="date" {...field('to')} />
          <Button type="submit">{t('apply')}</Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
            }}
          >
            {t('clear')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={log.error} />
      {log.isSuccess && entries.length === 0 && <Text>{t('none')}</Text>}
      {entries.length > 0 && (
        <ScrollTable
          minWidth={720}
          striped
          verticalSpacing="xs"
          label={t('title')}
          columns={[t('when'), t('who'), t('what'), t('target'), t('changes'), t('address')]}
        >
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <time dateTime={new Date(entry.createdAt).toISOString()}>{dateFormat.format(entry.createdAt)}</time>
              </Table.Td>
              <Table.Td>{entry.actor}</Table.Td>
              <Table.Td>{entry.action}</Table.Td>
              <Table.Td>
                {entry.targetType} {entry.targetId}
              </Table.Td>
              <Table.Td>
                <AuditChanges entry={entry} />
              </Table.Td>
              <Table.Td>{entry.ip}</Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
      <MoreButton pages={log} label={t('more')} />
    </Stack>
  );
}
