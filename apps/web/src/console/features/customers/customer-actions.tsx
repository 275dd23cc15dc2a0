import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import {
  adminAddCustomerDays,
  adminAddCustomerTraffic,
  adminBanCustomer,
  adminResetCustomerSubscription,
  adminRevokeCustomerSession,
  adminUnbanCustomer,
  CUSTOMER_MAX_DAYS,
  CUSTOMER_MAX_TRAFFIC_GB,
  type CustomerAccount,
  type CustomerDetails,
  isTrafficGb,
} from '@mutenet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../../api';
import { useText } from '../../i18n';
import { CUSTOMERS_KEY, usePermission } from './customer-data';
import { customersStrings } from './i18n';

/** A change waiting for the operator's confirmation: what the dialog says, its button, and the call. */
export type PendingChange = { message: string; label: string; call: () => Promise<CustomerDetails> };

export const customerKey = (id: number) => [...CUSTOMERS_KEY, 'page', id] as const;

/**
 * The confirmation dialog of every change to a customer, and the change itself: the answer is the customer's page
 * as it is now, shown at once; the list is read again.
 */
export function useCustomerChange(id: number) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [done, setDone] = useState(false);
  const change = useMutation({
    mutationFn: (confirmed: PendingChange) => confirmed.call(),
    onSuccess: (details) => {
      queryClient.setQueryData(customerKey(id), details);
      void queryClient.invalidateQueries({ queryKey: [...CUSTOMERS_KEY, 'list'] });
      setPending(null);
      setDone(true);
    },
  });
  const ask = (next: PendingChange) => {
    change.reset();
    setDone(false);
    setPending(next);
  };
  return { pending, ask, change, done, close: () => setPending(null) };
}

/** A form of one number (days, GB): checked against the contract's limits before the confirmation opens. */
function AmountForm({
  id,
  label,
  submit,
  error,
  parse,
  onValid,
}: {
  id: string;
  label: string;
  submit: string;
  error: string;
  parse: (text: string) => number | null;
  onValid: (value: number) => void;
}) {
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState(false);
  const send = (event: FormEvent) => {
    event.preventDefault();
    const value = parse(text.trim());
    setInvalid(value === null);
    if (value !== null) onValid(value);
  };
  return (
    <form onSubmit={send} noValidate aria-labelledby={`${id}-title`}>
      <Group align="flex-start" gap="xs">
        <TextInput
          id={id}
          label={label}
          inputMode="decimal"
          required
          value={text}
          error={invalid ? error : undefined}
          onChange={(event) => setText(event.currentTarget.value)}
          w={160}
        />
        <Button type="submit" mt={25} id={`${id}-title`}>
          {submit}
        </Button>
      </Group>
    </form>
  );
}

const parseDays = (text: string) => {
  const days = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return days >= 1 && days <= CUSTOMER_MAX_DAYS ? days : null;
};

/** GB with a point or (as Portuguese writes it) a comma before the decimals. */
const parseGb = (text: string) => {
  const gb = /^\d+([.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : Number.NaN;
  return isTrafficGb(gb) ? gb : null;
};

/** The actions the operator's role allows on this customer; each asks for a confirmation first. */
export function CustomerActions({ account, ask }: { account: CustomerAccount; ask: (pending: PendingChange) => void }) {
  const { t } = useText(customersStrings);
  const mayBan = usePermission('customers.ban');
  const mayReset = usePermission('customers.resetSubscription');
  const mayAddDays = usePermission('customers.addDays');
  const mayAddTraffic = usePermission('customers.addTraffic');
  if (!(mayBan || mayReset || mayAddDays || mayAddTraffic)) return null;
  const params = { id: account.id };
  const email = account.email;
  return (
    <Stack component="section" aria-labelledby="customer-actions" gap="sm">
      <Title order={2} size="h3" id="customer-actions">
        {t('actions')}
      </Title>
      <Group gap="xs">
        {mayBan &&
          (account.banned ? (
            <Button
              variant="default"
              onClick={() =>
                ask({
                  label: t('unban'),
                  message: t('unbanConfirm', { email }),
                  call: () => consoleCall(adminUnbanCustomer, { params }),
                })
              }
            >
              {t('unban')}
            </Button>
          ) : (
            <Button
              color="red"
              onClick={() =>
                ask({
                  label: t('ban'),
                  message: t('banConfirm', { email }),
                  call: () => consoleCall(adminBanCustomer, { params }),
                })
              }
            >
              {t('ban')}
            </Button>
          ))}
        {mayReset && (
          <Button
            variant="default"
            onClick={() =>
              ask({
                label: t('resetSubscription'),
                message: t('resetConfirm', { email }),
                call: () => consoleCall(adminResetCustomerSubscription, { params }),
              })
            }
          >
            {t('resetSubscription')}
          </Button>
        )}
      </Group>
      {mayAddDays && (
        <AmountForm
          id="add-days"
          label={t('days')}
          submit={t('addDays')}
          error={t('daysError', { max: CUSTOMER_MAX_DAYS })}
          parse={parseDays}
          onValid={(days) =>
            ask({
              label: t('addDays'),
              message: t('addDaysConfirm', { email, days }),
              call: () => consoleCall(adminAddCustomerDays, { params, body: { days } }),
            })
          }
        />
      )}
      {mayAddTraffic && (
        <AmountForm
          id="add-traffic"
          label={t('gb')}
          submit={t('addTraffic')}
          error={t('gbError', { max: CUSTOMER_MAX_TRAFFIC_GB })}
          parse={parseGb}
          onValid={(gb) =>
            ask({
              label: t('addTraffic'),
              message: t('addTrafficConfirm', { email, gb }),
              call: () => consoleCall(adminAddCustomerTraffic, { params, body: { gb } }),
            })
          }
        />
      )}
    </Stack>
  );
}

/** Ends one of the customer's sessions (after a confirmation). */
export function revokeSession(customerId: number, sessionId: number, label: string, message: string): PendingChange {
  return {
    label,
    message,
    call: () => consoleCall(adminRevokeCustomerSession, { params: { id: customerId, sessionId } }),
  };
}
