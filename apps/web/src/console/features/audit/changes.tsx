import { Table } from '@mantine/core';
import type { AuditEntry } from '@mutenet/contract';
import { useText } from '../../i18n';
import { auditStrings } from './i18n';

function fieldsOf(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  return value === null || value === undefined ? {} : { value };
}

function shown(value: unknown, empty: string): string {
  if (value === undefined || value === null) return empty;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The values a change touched, one row a field: as they were, and as it left them. */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  const { t } = useText(auditStrings);
  const before = fieldsOf(entry.before);
  const after = fieldsOf(entry.after);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (fields.length === 0) return t('empty');
  return (
    <Table withRowBorders={false} verticalSpacing={0} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('field')}</Table.Th>
          <Table.Th scope="col">{t('before')}</Table.Th>
          <Table.Th scope="col">{t('after')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map((field) => (
          <Table.Tr key={field}>
            <Table.Th scope="row" fw={500}>
              {field}
            </Table.Th>
            <Table.Td>{shown(before[field], t('empty'))}</Table.Td>
            <Table.Td>{shown(after[field], t('empty'))}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
