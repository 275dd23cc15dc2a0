import { Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  adminAddOperator,
  adminGetOperators,
  adminResetOperatorPassword,
  adminUpdateOperator,
  OPERATOR_ROLES,
  type OperatorAccount,
  type OperatorRole,
  type OperatorWithPassword,
  type UpdateOperatorBody,
} from '@mutenet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { OneTimeSecret } from '../../components/one-time-secret';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { consoleStrings, ROLE_KEY } from '../../strings';
import { operatorsStrings } from './i18n';

const OPERATORS_KEY = ['console', 'operators'] as const;

function useRoleOptions() {
  const { t } = useText(consoleStrings);
  return OPERATOR_ROLES.map((role) => ({ value: role, label: t(ROLE_KEY[role]) }));
}

function AddOperator({ onAdded }: { onAdded: (added: OperatorWithPassword) => void }) {
  const { t } = useText(operatorsStrings);
  const roles = useRoleOptions();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OperatorRole>('support');
  const add = useMutation({
    mutationFn: () => consoleCall(adminAddOperator, { body: { email, role } }),
    onSuccess: (added) => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
      onAdded(added);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="add-operator-title">
      <Stack gap="xs">
        <Title order={2} size="h3" id="add-operator-title">
          {t('addTitle')}
        </Title>
        <ErrorAlert error={add.error} />
        <Group align="flex-end">
          <TextInput
            label={t('email')}
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <NativeSelect
            label={t('role')}
            data={roles}
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as OperatorRole)}
          />
          <Button type="submit" loading={add.isPending}>
            {t('add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function OperatorRow({
  operator,
  onChange,
  onReset,
}: {
  operator: OperatorAccount;
  onChange: (operator: OperatorAccount, changes: UpdateOperatorBody) => void;
  onReset: (operator: OperatorAccount) => void;
}) {
  const { t } = useText(operatorsStrings);
  const roles = useRoleOptions();
  return (
    <Table.Tr>
      <Table.Td>{operator.email}</Table.Td>
      <Table.Td>
        <NativeSelect
          aria-label={t('roleOf', { email: operator.email })}
          data={roles}
          value={operator.role}
          onChange={(event) => onChange(operator, { role: event.currentTarget.value as OperatorRole })}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          <Text size="sm" fw={operator.disabled ? 700 : 400}>
            {operator.disabled ? t('disabled') : t('active')}
          </Text>
          {operator.mustChangePassword && (
            <Text size="sm" c="dimmed">
              {t('mustChange')}
            </Text>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{operator.totpEnrolled ? t('totpYes') : t('totpNo')}</Table.Td>
      <Table.Td>
        <Group gap="xs" role="group" aria-label={t('actionsOf', { email: operator.email })}>
          <Button size="xs" variant="default" onClick={() => onChange(operator, { disabled: !operator.disabled })}>
            {operator.disabled ? t('enable') : t('disable')}
          </Button>
          <Button size="xs" variant="default" onClick={() => onReset(operator)}>
            {t('resetPassword')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Owners: every operator, adding one with a role, changing roles, disabling, resetting a password. */
export default function OperatorsScreen() {
  const { t } = useText(operatorsStrings);
  const queryClient = useQueryClient();
  const [oneTime, setOneTime] = useState<OperatorWithPassword | null>(null);
  const [resetting, setResetting] = useState<OperatorAccount | null>(null);
  const operators = useQuery({ queryKey: OPERATORS_KEY, queryFn: () => consoleCall(adminGetOperators) });
  const update = useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateOperatorBody }) =>
      consoleCall(adminUpdateOperator, { params: { id }, body: changes }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: OPERATORS_KEY }),
  });
  const reset = useMutation({
    mutationFn: (id: number) => consoleCall(adminResetOperatorPassword, { params: { id } }),
    onSuccess: (answer) => {
      setResetting(null);
      setOneTime(answer);
      void queryClient.invalidateQueries({ queryKey: OPERATORS_KEY });
    },
  });

  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <AddOperator onAdded={setOneTime} />
      <ErrorAlert error={operators.error ?? update.error ?? reset.error} />
      {operators.data && (
        <ScrollTable
          minWidth={640}
          striped
          label={t('title')}
          columns={[t('email'), t('role'), t('state'), t('totp'), t('actions')]}
        >
          {operators.data.operators.map((operator) => (
            <OperatorRow
              key={operator.id}
              operator={operator}
              onChange={(target, changes) => update.mutate({ id: target.id, changes })}
              onReset={setResetting}
            />
          ))}
        </ScrollTable>
      )}
      <ConfirmDialog
        opened={resetting !== null}
        title={t('resetPassword')}
        message={t('resetConfirm', { email: resetting?.email ?? '' })}
        confirmLabel={t('resetPassword')}
        loading={reset.isPending}
        onConfirm={() => resetting && reset.mutate(resetting.id)}
        onClose={() => setResetting(null)}
      />
      <OneTimeSecret
        secret={oneTime?.password ?? null}
        title={oneTime ? t('oneTimeTitle', { email: oneTime.operator.email }) : ''}
        warning={t('oneTimeIntro')}
        testId="one-time-password"
        onClose={() => setOneTime(null)}
      />
    </Stack>
  );
}
