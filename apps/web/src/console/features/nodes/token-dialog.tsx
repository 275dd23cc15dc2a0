import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import type { NodeWithToken } from '@mutenet/contract';
import { useState } from 'react';
import { copyText } from '../../../lib/clipboard';
import { useText } from '../../i18n';
import { nodesStrings } from './i18n';

/** A block of text to paste somewhere, with its copy button (and a word when the browser refused to copy). */
function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useText(nodesStrings);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => setState((await copyText(value)) ? 'copied' : 'failed');
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <Button
          size="xs"
          variant="default"
          onClick={() => void copy()}
          aria-label={state === 'copied' ? `${t('copied')}: ${label}` : t('copy', { what: label })}
        >
          {state === 'copied' ? t('copied') : t('copy', { what: '' }).trim()}
        </Button>
      </Group>
      <Code block data-testid={testId} style={{ overflowX: 'auto', whiteSpace: 'pre' }}>
        {value}
      </Code>
      {state === 'failed' && (
        <Text size="sm" c="red" role="status">
          {t('copyFailed')}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A node's new token with the entries for V2bX's config.json and XrayR's config.yml (JSON is valid YAML too), shown
 * this once: the server keeps only its hash.
 */
export function TokenDialog({ shown, onClose }: { shown: NodeWithToken | null; onClose: () => void }) {
  const { t } = useText(nodesStrings);
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      size="lg"
      title={shown ? t('tokenTitle', { name: shown.node.names.en }) : ''}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {shown && (
        <Stack>
          <Alert color="yellow">{t('tokenWarning')}</Alert>
          <Copyable label={t('token')} value={shown.token} testId="node-token" />
          <Copyable label={t('v2bx')} value={JSON.stringify(shown.v2bx, null, 2)} testId="v2bx-entry" />
          {shown.xrayr ? (
            <Copyable label={t('xrayr')} value={JSON.stringify(shown.xrayr, null, 2)} testId="xrayr-entry" />
          ) : (
            <Text size="sm">{t('noXrayr')}</Text>
          )}
          <Group>
            <Button onClick={onClose}>{t('close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
