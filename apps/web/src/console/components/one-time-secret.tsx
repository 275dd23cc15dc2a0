import { Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { WarningAlert } from '../../components/ui/warning-alert';
import { useText } from '../i18n';
import { consoleStrings } from '../strings';

/**
 * A secret the server keeps only as a hash (a new operator's password, an API token), shown this once with a copy
 * button and a warning. A click beside the dialog does not close it: that would lose the secret for good.
 */
export function OneTimeSecret({
  secret,
  title,
  warning,
  testId,
  onClose,
}: {
  /** Null while there is nothing to show (the dialog is closed). */
  secret: string | null;
  title: string;
  warning: ReactNode;
  testId: string;
  onClose: () => void;
}) {
  const { t } = useText(consoleStrings);
  return (
    <Modal
      opened={secret !== null}
      onClose={onClose}
      closeOnClickOutside={false}
      title={title}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {secret !== null && (
        <Stack>
          <WarningAlert>{warning}</WarningAlert>
          <Code block data-testid={testId}>
            {secret}
          </Code>
          <Group>
            <CopyButton value={secret}>
              {({ copied, copy }) => <Button onClick={copy}>{copied ? t('copied') : t('copy')}</Button>}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              {t('close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
