import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { securityStrings } from './i18n';

/** A question before something that cannot be undone; the focus goes back to the button that opened it. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  loading,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  loading: boolean;
  /** Why the last try failed. */
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useText(securityStrings);
  return (
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('cancel') }}>
      <Stack>
        <Text>{children}</Text>
        <ErrorAlert error={error} />
        <Group>
          <Button color="red.9" loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
