import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Modal.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type ConfirmDialogProps = {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  loading?: boolean;
  /** A red confirm button for what cannot be undone (cancelling an order). */
  danger?: boolean;
  testId?: string;
};

/** A modal question with two answers: a dialog named by its title and described by its text, Escape closes it. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { opened, title, children, confirmLabel, cancelLabel, onConfirm, onClose, loading, danger, testId } = props;
  const { t } = useTranslation();
  return (
    <Modal.Root opened={opened} onClose={onClose} centered>
      <Modal.Overlay />
      <Modal.Content data-testid={testId}>
        {/* Not a <header> landmark: inside the dialog it would be a second banner of the page. */}
        <Modal.Header role="none">
          <Modal.Title fw={700}>{title}</Modal.Title>
          <Modal.CloseButton aria-label={t('common.close')} />
        </Modal.Header>
        <Modal.Body>
          <Stack gap="lg">
            <Text>{children}</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} data-testid={testId ? `${testId}-cancel` : undefined}>
                {cancelLabel}
              </Button>
              <Button
                color={danger ? 'red.9' : undefined}
                onClick={onConfirm}
                loading={loading}
                data-testid={testId ? `${testId}-confirm` : undefined}
              >
                {confirmLabel}
              </Button>
            </Group>
          </Stack>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
