import { Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  API_TOKEN_NAME_MAX_LENGTH,
  type ApiToken,
  type ApiTokenWithSecret,
  adminCreateApiToken,
  adminGetApiTokens,
  adminRevokeApiToken,
  OPERATOR_ROLES,
  type OperatorRole,
} from '@mutenet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { OneTimeSecret } from '../../components/one-time-secret';
import { ScrollTable } from '../../components/scroll-table';
import { dateTimeFormat } from '../../dates';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { consoleStrings, ROLE_KEY } from '../../strings';
import { securityStrings } from './i18n';

const TOKENS_KEY = ['console', 'api-tokens'] as const;

function NewTokenForm({ onCreated }: { onCreated: (created: ApiTokenWithSecret) => void }) {
  const { t } = useText(securityStrings);
  const roles = useText(consoleStrings);
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('support');
  const create = useMutation({
    mutationFn: () => consoleCall(adminCreateApiToken, { body: { name, role } }),
    onSuccess: (created) => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
      onCreated(created);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="new-token-title">
      <Stack gap="xs">
        <Title order={3} id="new-token-title">
          {t('newToken')}
        </Title>
        <ErrorAlert error={create.error} />
        <Group align="flex-end">
          <TextInput
            label={t('tokenName')}
            required
            maxLength={API_TOKEN_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <NativeSelect
            label={t('role')}
            data={OPERATOR_ROLES.map((value) => ({ value, label: roles.t(ROLE_KEY[value]) }))}
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as OperatorRole)}
          />
          <Button type="submit" loading={create.isPending}>
            {t('create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Owners: the API tokens not revoked, making one with a role (its secret shown once), revoking one. */
export function ApiTokensSection() {
  const { t, language } = useText(securityStrings);
  const roles = useText(consoleStrings);
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<ApiTokenWithSecret | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const tokens = useQuery({ queryKey: TOKENS_KEY, queryFn: () => consoleCall(adminGetApiTokens) });
  const revoke = useMutation({
    mutationFn: (id: number) => consoleCall(adminRevokeApiToken, { params: { id } }),
    onSuccess: () => {
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
  });
  const close = () => {
    setRevoking(null);
    revoke.reset();
  };
  const format = dateTimeFormat(language);
  const list = tokens.data?.tokens ?? [];

  return (
    <Stack component="section" aria-labelledby="tokens-title">
      <Title order={2} id="tokens-title">
        {t('tokens')}
      </Title>
      <Text>{t('tokensIntro')}</Text>
      <ErrorAlert error={tokens.error} />
      {tokens.isSuccess && list.length === 0 && <Text>{t('noTokens')}</Text>}
      {list.length > 0 && (
        <ScrollTable
          minWidth={720}
          striped
          label={t('tokens')}
          columns={[t('name'), t('role'), t('createdBy'), t('added'), t('lastUsed'), t('actions')]}
        >
          {list.map((token) => (
            <Table.Tr key={token.id}>
              <Table.Td>{token.name}</Table.Td>
              <Table.Td>{roles.t(ROLE_KEY[token.role])}</Table.Td>
              <Table.Td>{token.createdBy.email}</Table.Td>
              <Table.Td>{format.format(token.createdAt)}</Table.Td>
              <Table.Td>{token.lastUsedAt === null ? t('never') : format.format(token.lastUsedAt)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={t('revokeOf', { name: token.name })}
                  onClick={() => setRevoking(token)}
                >
                  {t('revoke')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
      <NewTokenForm onCreated={setCreated} />
      <OneTimeSecret
        secret={created?.token ?? null}
        title={created ? t('tokenTitle', { name: created.name }) : ''}
        warning={created && t('tokenWarning', { role: roles.t(ROLE_KEY[created.role]) })}
        testId="api-token"
        onClose={() => setCreated(null)}
      />
      <ConfirmDialog
        opened={revoking !== null}
        title={t('revokeTitle')}
        confirmLabel={t('revoke')}
        loading={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={close}
        message={t('revokeConfirm', { name: revoking?.name ?? '' })}
      />
    </Stack>
  );
}
