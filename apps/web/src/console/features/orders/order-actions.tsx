import { Alert, Button, Checkbox, Group, Text } from '@mantine/core';
import {
  type AdminOrder,
  type AdminPermission,
  adminChargebackOrder,
  adminMarkOrderPaid,
  adminRefundOrder,
  type OrderStatus,
  UNPAID_ORDER_STATUSES,
} from '@mutenet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useText } from '../../i18n';
import { ORDERS_KEY } from './api';
import { useOrderFormat } from './format';
import { ordersStrings } from './i18n';

type ActionName = 'markPaid' | 'refund' | 'chargeback';
type OrdersText = keyof (typeof ordersStrings)['en'];

/**
 * What each change to an order needs: the permission (the button is not shown to a role without it, which the server
 * would refuse), the statuses it applies to (the server's lifecycle: money marks an unpaid order paid, and only a paid
 * one can be refunded or charged back), and the strings of its dialog and of its outcome.
 */
const ACTIONS: Record<
  ActionName,
  { permission: AdminPermission; appliesTo: (status: OrderStatus) => boolean; title: OrdersText; done: OrdersText }
> = {
  markPaid: {
    permission: 'orders.markPaid',
    appliesTo: (status) => UNPAID_ORDER_STATUSES.includes(status),
    title: 'markPaidTitle',
    done: 'markedPaid',
  },
  refund: {
    permission: 'orders.refund',
    appliesTo: (status) => status === 'success',
    title: 'refundTitle',
    done: 'refunded',
  },
  chargeback: {
    permission: 'orders.chargeback',
    appliesTo: (status) => status === 'success',
    title: 'chargebackTitle',
    done: 'chargedBack',
  },
};
const ACTION_NAMES = Object.keys(ACTIONS) as ActionName[];

function change(action: ActionName, no: string, alreadyRefunded: boolean) {
  const params = { no };
  if (action === 'markPaid') return consoleCall(adminMarkOrderPaid, { params, body: { confirm: true } });
  if (action === 'chargeback') return consoleCall(adminChargebackOrder, { params, body: { confirm: true } });
  return consoleCall(adminRefundOrder, { params, body: { confirm: true, alreadyRefunded } });
}

/** What the dialog asks, naming the order and its amount. */
function Question({ action, order }: { action: ActionName; order: AdminOrder }) {
  const { t } = useText(ordersStrings);
  const format = useOrderFormat();
  const values = { no: order.no, amount: format.money(order.amount, order.currency), gateway: order.gateway ?? '' };
  if (action === 'markPaid') return <Text>{t('markPaidConfirm', values)}</Text>;
  if (action === 'chargeback') return <Text>{t('chargebackConfirm', values)}</Text>;
  // An order paid by hand (or by a gateway with no payment id) has nothing a gateway could give back.
  return <Text>{t(order.gateway && order.paymentRef ? 'refundConfirm' : 'refundByHand', values)}</Text>;
}

/**
 * Mark paid, refund and chargeback: each shown only when the operator's role has it and the order's status allows
 * it, each behind a dialog naming the order and its amount. The outcome is announced and takes the focus (the button
 * that opened the dialog is gone once the order has moved on).
 */
export function OrderActions({ order, permissions }: { order: AdminOrder; permissions: readonly AdminPermission[] }) {
  const { t } = useText(ordersStrings);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<ActionName | null>(null);
  const [alreadyRefunded, setAlreadyRefunded] = useState(false);
  const [done, setDone] = useState<ActionName | null>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  const mutation = useMutation({
    mutationFn: (action: ActionName) => change(action, order.no, alreadyRefunded),
    onSuccess: (_order, action) => {
      setDone(action);
      setOpen(null);
      return queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const available = ACTION_NAMES.filter(
    (action) => permissions.includes(ACTIONS[action].permission) && ACTIONS[action].appliesTo(order.status),
  );
  const start = (action: ActionName) => {
    mutation.reset();
    setDone(null);
    setAlreadyRefunded(false);
    setOpen(action);
  };

  return (
    <>
      {done && (
        <Alert color="green" role="status" tabIndex={-1} ref={doneRef}>
          {t(ACTIONS[done].done, { no: order.no })}
        </Alert>
      )}
      {available.length > 0 && (
        <Group role="group" aria-label={t('actions')}>
          {available.map((action) => (
            <Button
              key={action}
              variant={action === 'markPaid' ? 'filled' : 'default'}
              color={action === 'markPaid' ? undefined : 'red'}
              onClick={() => start(action)}
            >
              {t(action)}
            </Button>
          ))}
        </Group>
      )}
      <ConfirmDialog
        opened={open !== null}
        title={open ? t(ACTIONS[open].title, { no: order.no }) : ''}
        confirmLabel={open ? t(open) : ''}
        danger={open !== 'markPaid'}
        loading={mutation.isPending}
        error={mutation.error}
        // After a change the button that opened the dialog is gone: the focus goes to the outcome instead.
        returnFocus={done === null}
        onConfirm={() => open && mutation.mutate(open)}
        onClose={() => setOpen(null)}
      >
        {open && <Question action={open} order={order} />}
        {open === 'refund' && (
          <Checkbox
            label={t('alreadyRefunded')}
            description={t('alreadyRefundedHint')}
            checked={alreadyRefunded}
            onChange={(event) => setAlreadyRefunded(event.currentTarget.checked)}
          />
        )}
      </ConfirmDialog>
    </>
  );
}
