import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toastWarning } from '../../../lib/notify';
import { type CreateOrderOutcome, type CreateOrderValues, useCreateOrder } from '../api/create-order';

type Selection = Omit<CreateOrderValues, 'force'>;
type Dialog = { kind: 'unfinished'; orderNo: string } | { kind: 'packageActive'; selection: Selection } | null;

export type PlaceOrderButtonProps = {
  /** What to order; null keeps the button disabled (the currencies have not loaded). */
  selection: Selection | null;
  /** A new order: the caller opens its payment page and its details. */
  onCreated: (orderNo: string) => void;
  /** The customer chose to go on with the unfinished order of this plan. */
  onUnfinished: (orderNo: string) => void;
};

/**
 * Place an order, with the questions of the place-order flow (spec section 4): an unfinished order for this plan
 * (code 3) leads to it once confirmed; an active package (code 4) is confirmed and the order placed with `force`.
 */
export function PlaceOrderButton({ selection, onCreated, onUnfinished }: PlaceOrderButtonProps) {
  const { t } = useTranslation();
  const createOrder = useCreateOrder();
  const [dialog, setDialog] = useState<Dialog>(null);

  const settle = (outcome: CreateOrderOutcome, placed: Selection) => {
    switch (outcome.kind) {
      case 'created':
        setDialog(null);
        onCreated(outcome.orderNo);
        return;
      case 'unfinished':
        setDialog({ kind: 'unfinished', orderNo: outcome.orderNo });
        return;
      case 'packageActive':
        setDialog({ kind: 'packageActive', selection: placed });
        return;
      case 'noOrderInfo':
        setDialog(null);
        toastWarning(t('orders.noOrderInfo'));
        return;
    }
  };

  const place = (placed: Selection, force: boolean) => {
    if (createOrder.isPending) return;
    createOrder.mutate(
      { ...placed, force },
      { onSuccess: (outcome) => settle(outcome, placed), onError: () => setDialog(null) },
    );
  };

  return (
    <>
      <Button
        fullWidth
        size="md"
        disabled={selection === null}
        loading={createOrder.isPending && dialog === null}
        onClick={() => {
          if (selection) place(selection, false);
        }}
        data-testid="place-order"
      >
        {t('configure.placeOrder')}
      </Button>
      <ConfirmDialog
        opened={dialog?.kind === 'unfinished'}
        title={t('orders.unfinishedTitle')}
        confirmLabel={t('orders.unfinishedConfirm')}
        cancelLabel={t('orders.back')}
        onConfirm={() => {
          if (dialog?.kind !== 'unfinished') return;
          setDialog(null);
          onUnfinished(dialog.orderNo);
        }}
        onClose={() => setDialog(null)}
        testId="unfinished-dialog"
      >
        {t('orders.unfinishedText')}
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog?.kind === 'packageActive'}
        title={t('orders.activeTitle')}
        confirmLabel={t('orders.activeConfirm')}
        cancelLabel={t('orders.back')}
        onConfirm={() => {
          if (dialog?.kind === 'packageActive') place(dialog.selection, true);
        }}
        onClose={() => setDialog(null)}
        loading={createOrder.isPending}
        testId="active-dialog"
      >
        {t('orders.activeText')}
      </ConfirmDialog>
    </>
  );
}
