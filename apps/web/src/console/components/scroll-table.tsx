import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** The table's accessible name: its own words, or the id of the heading above it. */
type TableName = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

/**
 * A table with its column headings that scrolls sideways below `minWidth` (a phone is 390 px wide). The scrolling box can take the keyboard's
 * focus, so that keyboard users can scroll it too, and carries the table's name for screen readers (axe's
 * scrollable-region-focusable).
 */
export function ScrollTable({
  minWidth,
  label,
  labelledBy,
  columns,
  children,
  ...tableProps
}: TableName & {
  minWidth: number;
  /** The column headings; `false` leaves out a column the operator's role does not have (actions). */
  columns: readonly (string | false)[];
  /** The rows. */
  children: ReactNode;
} & Omit<TableProps, 'aria-label' | 'aria-labelledby'>) {
  const name = { 'aria-label': label, 'aria-labelledby': labelledBy };
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'group', ...name } }}
    >
      <Table {...tableProps} {...name}>
        <Table.Thead>
          <Table.Tr>
            {columns
              .filter((column) => column !== false)
              .map((column) => (
                <Table.Th key={column} scope="col">
                  {column}
                </Table.Th>
              ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
