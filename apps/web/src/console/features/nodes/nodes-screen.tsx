import { Badge, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import {
  type AdminNode,
  adminAddNode,
  adminGetNodes,
  adminHideNode,
  adminRemoveNode,
  adminRotateNodeToken,
  adminShowNode,
  adminUpdateNode,
  type NewNodeBody,
  type NodeWithToken,
  REQUEST_LANGUAGE,
} from '@mutenet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatTraffic } from '../../../features/subscription/utils/format-traffic';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { useSession } from '../../session/use-session';
import { nodesStrings } from './i18n';
import { NodeForm } from './node-form';
import { TokenDialog } from './token-dialog';

const NODES_KEY = ['console', 'nodes'] as const;
/** Online status is a heartbeat within 5 minutes: a list refreshed this often stays close to it. */
const REFRESH_MS = 15_000;

type Editing = { mode: 'add' } | { mode: 'edit'; node: AdminNode };
type Confirming = { action: 'rotate' | 'remove'; node: AdminNode };

function NodeRow({
  node,
  canWrite,
  onEdit,
  onVisible,
  onConfirm,
}: {
  node: AdminNode;
  canWrite: boolean;
  onEdit: (node: AdminNode) => void;
  onVisible: (node: AdminNode, visible: boolean) => void;
  onConfirm: (confirming: Confirming) => void;
}) {
  const { t, language } = useText(nodesStrings);
  const bytes = (value: number) => formatTraffic(value, REQUEST_LANGUAGE[language]);
  const name = node.names.en;
  return (
    <Table.Tr>
      <Table.Th scope="row">
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600}>
            {name}
          </Text>
          {!node.visible && <Badge color="gray.7">{t('hiddenBadge')}</Badge>}
        </Group>
        <Text size="xs" c="dimmed">
          {node.protocol}
          {node.labels.length > 0 && ` · ${node.labels.join(', ')}`}
        </Text>
      </Table.Th>
      <Table.Td>
        {node.host}:{node.port}
      </Table.Td>
      <Table.Td>
        {/* A dot of colour beside dark text: the contrast small text needs, and the word says it too. */}
        <Badge variant="dot" color={node.online ? 'green' : 'red'}>
          {node.online ? t('online') : t('offline')}
        </Badge>
      </Table.Td>
      <Table.Td>{node.onlineUsers}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {t('todayTraffic', { upload: bytes(node.todayUpload), download: bytes(node.todayDownload) })}
      </Table.Td>
      {canWrite && (
        <Table.Td>
          <Group gap="xs" wrap="nowrap" role="group" aria-label={t('actionsOf', { name })}>
            <Button size="xs" variant="default" onClick={() => onEdit(node)}>
              {t('edit')}
            </Button>
            <Button size="xs" variant="default" onClick={() => onVisible(node, !node.visible)}>
              {node.visible ? t('hide') : t('show')}
            </Button>
            <Button size="xs" variant="default" onClick={() => onConfirm({ action: 'rotate', node })}>
              {t('rotate')}
            </Button>
            <Button size="xs" variant="default" color="red" onClick={() => onConfirm({ action: 'remove', node })}>
              {t('remove')}
            </Button>
          </Group>
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/** The nodes with their live status and today's traffic; adding, editing, hiding, token rotation and removal. */
export default function NodesScreen() {
  const { t } = useText(nodesStrings);
  const queryClient = useQueryClient();
  const canWrite = useSession().data?.permissions.includes('nodes.write') ?? false;
  const [editing, setEditing] = useState<Editing | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [token, setToken] = useState<NodeWithToken | null>(null);
  const nodes = useQuery({
    queryKey: NODES_KEY,
    queryFn: () => consoleCall(adminGetNodes),
    refetchInterval: REFRESH_MS,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: NODES_KEY });

  const save = useMutation({
    mutationFn: async ({ node, body }: { node?: AdminNode; body: NewNodeBody }) => {
      if (!node) return consoleCall(adminAddNode, { body });
      const { visible, ...changes } = body;
      await consoleCall(adminUpdateNode, { params: { id: node.id }, body: changes });
      if (visible !== undefined && visible !== node.visible) {
        await consoleCall(visible ? adminShowNode : adminHideNode, { params: { id: node.id } });
      }
      return null;
    },
    onSuccess: (added) => {
      setEditing(null);
      if (added) setToken(added);
    },
    onSettled: refresh,
  });
  const setVisible = useMutation({
    mutationFn: ({ node, visible }: { node: AdminNode; visible: boolean }) =>
      consoleCall(visible ? adminShowNode : adminHideNode, { params: { id: node.id } }),
    onSettled: refresh,
  });
  const confirmed = useMutation({
    mutationFn: async ({ action, node }: Confirming) => {
      if (action === 'rotate') return consoleCall(adminRotateNodeToken, { params: { id: node.id } });
      await consoleCall(adminRemoveNode, { params: { id: node.id } });
      return null;
    },
    onSuccess: (rotated) => {
      setConfirming(null);
      if (rotated) setToken(rotated);
    },
    onSettled: refresh,
  });
  const openForm = (next: Editing | null) => {
    save.reset();
    setEditing(next);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('title')}</Title>
        {canWrite && <Button onClick={() => openForm({ mode: 'add' })}>{t('add')}</Button>}
      </Group>
      <ErrorAlert error={nodes.error ?? setVisible.error ?? confirmed.error} />
      {nodes.data && nodes.data.nodes.length === 0 && <Text>{t('empty')}</Text>}
      {nodes.data && nodes.data.nodes.length > 0 && (
        <ScrollTable
          minWidth={canWrite ? 900 : 600}
          striped
          label={t('title')}
          columns={[t('name'), t('address'), t('status'), t('onlineUsers'), t('today'), canWrite && t('actions')]}
        >
          {nodes.data.nodes.map((node) => (
            <NodeRow
              key={node.id}
              node={node}
              canWrite={canWrite}
              onEdit={(target) => openForm({ mode: 'edit', node: target })}
              onVisible={(target, visible) => setVisible.mutate({ node: target, visible })}
              onConfirm={(next) => {
                confirmed.reset();
                setConfirming(next);
              }}
            />
          ))}
        </ScrollTable>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => openForm(null)}
        size="xl"
        title={editing?.mode === 'edit' ? t('editTitle', { name: editing.node.names.en }) : t('addTitle')}
        closeButtonProps={{ 'aria-label': t('cancel') }}
      >
        {editing && (
          <NodeForm
            key={editing.mode === 'edit' ? editing.node.id : 'new'}
            {...(editing.mode === 'edit' ? { node: editing.node } : {})}
            pending={save.isPending}
            error={save.error}
            onSubmit={(body) => save.mutate(editing.mode === 'edit' ? { node: editing.node, body } : { body })}
            onCancel={() => openForm(null)}
          />
        )}
      </Modal>
      <ConfirmDialog
        opened={confirming !== null}
        title={t(confirming?.action === 'rotate' ? 'rotateTitle' : 'removeTitle', {
          name: confirming?.node.names.en ?? '',
        })}
        message={confirming && t(confirming.action === 'rotate' ? 'rotateConfirm' : 'removeConfirm')}
        confirmLabel={t(confirming?.action === 'rotate' ? 'rotate' : 'remove')}
        loading={confirmed.isPending}
        onConfirm={() => confirming && confirmed.mutate(confirming)}
        onClose={() => setConfirming(null)}
      />
      <TokenDialog shown={token} onClose={() => setToken(null)} />
    </Stack>
  );
}
