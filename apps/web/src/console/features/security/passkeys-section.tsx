import { Button, Stack, Table, Text, Title } from '@mantine/core';
import { adminGetPasskeys, adminRemovePasskey, type Passkey } from '@mutenet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ScrollTable } from '../../components/scroll-table';
import { dateTimeFormat } from '../../dates';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { AddPasskeyForm, PASSKEYS_KEY } from '../../session/passkey';
import { SESSION_KEY } from '../../session/use-session';
import { securityStrings } from './i18n';

/** The operator's own passkeys: the list, adding one with a name, removing one after a confirmation. */
export function PasskeysSection() {
  const { t, language } = useText(securityStrings);
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const passkeys = useQuery({ queryKey: PASSKEYS_KEY, queryFn: () => consoleCall(adminGetPasskeys) });
  const remove = useMutation({
    mutationFn: (id: number) => consoleCall(adminRemovePasskey, { params: { id } }),
    onSuccess: () => {
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
  const format = dateTimeFormat(language);
  const close = () => {
    setRemoving(null);
    remove.reset();
  };
  const list = passkeys.data?.passkeys ?? [];

  return (
    <Stack component="section" aria-labelledby="passkeys-title">
      <Title order={2} id="passkeys-title">
        {t('passkeys')}
      </Title>
      <ErrorAlert error={passkeys.error} />
      {passkeys.isSuccess && list.length === 0 && <Text>{t('noPasskeys')}</Text>}
      {list.length > 0 && (
        <ScrollTable
          minWidth={520}
          striped
          label={t('passkeys')}
          columns={[t('name'), t('added'), t('lastUsed'), t('actions')]}
        >
          {list.map((passkey) => (
            <Table.Tr key={passkey.id}>
              <Table.Td>{passkey.name}</Table.Td>
              <Table.Td>{format.format(passkey.createdAt)}</Table.Td>
              <Table.Td>{passkey.lastUsedAt === null ? t('never') : format.format(passkey.lastUsedAt)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={t('removeOf', { name: passkey.name })}
                  onClick={() => setRemoving(passkey)}
                >
                  {t('remove')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
      <AddPasskeyForm />
      <ConfirmDialog
        opened={removing !== null}
        title={t('removeTitle')}
        confirmLabel={t('remove')}
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing.id)}
        onClose={close}
        message={t('removeConfirm', { name: removing?.name ?? '' })}
      />
    </Stack>
  );
}
