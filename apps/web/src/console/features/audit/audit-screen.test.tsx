import type { AuditEntry } from '@mutenet/contract';
import { screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

function entry(id: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    actor: 'owner@example.com',
    operatorId: 1,
    tokenId: null,
    action: 'operator.update',
    targetType: 'operator',
    targetId: '2',
    before: { role: 'support' },
    after: { role: 'manager' },
    ip: '203.0.113.7',
    createdAt: Date.UTC(2026, 0, 2, 10, 0),
    ...overrides,
  };
}

describe('the audit log screen', () => {
  it('shows each change with its before and after, filters it, and pages with "show more"', async () => {
    const network = stubFetch()
      .on('GET', '/api/session', envelope(sessionOf()))
      .on(
        'GET',
        '/api/operators',
        envelope({
          operators: [
            {
              id: 1,
              email: 'owner@example.com',
              role: 'owner',
              totpEnrolled: true,
              mustChangePassword: false,
              disabled: false,
              createdAt: 0,
            },
          ],
        }),
      )
      .on('GET', '/api/audit', (request) =>
        request.url.searchParams.get('cursor') === '5'
          ? envelope({
              entries: [entry(4, { action: 'operator.add', before: null, after: { email: 'a@b.c' } })],
              next: null,
            })
          : envelope({ entries: [entry(5)], next: 5 }),
      );
    const { user } = await renderConsole({ path: '/audit' });

    const table = await screen.findByRole('table', { name: 'Audit log' });
    // At phone width the table scrolls sideways inside a box the keyboard can reach (axe: scrollable-region-focusable).
    expect(screen.getByRole('group', { name: 'Audit log' })).toHaveAttribute('tabindex', '0');
    const row = within(table).getByText('operator.update').closest('tr')!;
    const changes = within(row as HTMLElement).getByRole('row', { name: /role/ });
    expect(changes).toHaveTextContent('support');
    expect(changes).toHaveTextContent('manager');

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('operator.add')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();

    const filters = screen.getByRole('form', { name: 'Filters' });
    await user.selectOptions(within(filters).getByLabelText('Operator'), '1');
    await user.type(within(filters).getByLabelText('Action'), 'operator.add');
    await user.type(within(filters).getByLabelText('From'), '2026-01-01');
    await user.type(within(filters).getByLabelText('To (inclusive)'), '2026-01-31');
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));

    await screen.findByText('operator.update');
    const last = network.to('/api/audit').at(-1)!.url.searchParams;
    expect(Object.fromEntries(last)).toEqual({
      operatorId: '1',
      action: 'operator.add',
      from: String(dayjs('2026-01-01').valueOf()),
      to: String(dayjs('2026-02-01').valueOf()),
    });
  });
});
