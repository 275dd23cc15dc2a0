import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../error-alert';
import { useText } from '../i18n';
import { consoleStrings } from '../strings';

/**
 * A question before a change that cannot be undone (or that moves money): the change runs only on the confirming
 * button; Mantine's Modal traps the focus and gives it back to the button that opened it.
 */
export function ConfirmDialog({
  opened,
  title,
  message,
  children,
  confirmLabel,
  danger = true,
  loading,
  error,
  returnFocus,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  /** The question, as a paragraph. */
  message?: ReactNode;
  /** Anything the change needs besides the question (a choice, a detail). */
  children?: ReactNode;
  confirmLabel: string;
  /** A red confirming button (dark enough for white text) for what cannot be undone; false for the theme's colour. */
  danger?: boolean;
  loading: boolean;
  /** Why the last try failed. */
  error?: unknown;
  /** False where the opening button is gone after the change, so the caller places the focus itself. */
  returnFocus?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useText(consoleStrings);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      closeButtonProps={{ 'aria-label': t('cancel') }}
      returnFocus={returnFocus}
    >
      <Stack>
        {message !== undefined && <Text>{message}</Text>}
        {children}
        <ErrorAlert error={error} />
        <Group>
          <Button color={danger ? 'red.9' : undefined} loading={loading} onClick={onConfirm}>
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
