import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/Table.css';
import { Badge, Box, Button, Group, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { NODE_ONLINE, type Node, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScreenLoader } from '../../../components/ui/screen-loader';
import { useLanguage } from '../../../i18n/use-language';
import { formatNumber } from '../../../lib/numbers';
import { useNodes } from '../api/get-nodes';

/** The tags of a node: its comma-separated label, trimmed, without empty ones. */
export function nodeTags(label: string): string[] {
  return label
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

export type NodeTableProps = {
  /** Phones and mobile mode: no tags column (spec section 2). */
  compact: boolean;
  /** The empty state's way to order. */
  shopHref: string;
};

/**
 * Node status (spec section 2): each node's name, status, multiplier and tags, with the note on how status and the
 * multiplier work; a loading state until the list arrives and an empty state that leads to the shop.
 */
export function NodeTable({ compact, shopHref }: NodeTableProps) {
  const { t } = useTranslation();
  const nodes = useNodes();

  if (nodes.isPending) {
    return <ScreenLoader testId="nodes-loading" />;
  }
  if (nodes.isError) {
    return (
      <Stack align="flex-start" gap="sm">
        <Text>{t('nodes.loadFailed')}</Text>
        <Button variant="default" onClick={() => void nodes.refetch()}>
          {t('common.retry')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {nodes.data.length === 0 ? (
        <Stack align="flex-start" gap="sm" data-testid="nodes-empty">
          <Text>{t('nodes.empty')}</Text>
          <Button component={Link} to={shopHref} variant="default">
            {t('nodes.order')}
          </Button>
        </Stack>
      ) : (
        <NodeRows nodes={nodes.data} compact={compact} />
      )}
      <Text size="sm" c="dimmed" data-testid="nodes-note">
        {t('nodes.note')}
      </Text>
    </Stack>
  );
}

function NodeRows({ nodes, compact }: { nodes: Node[]; compact: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <Paper withBorder>
      <ScrollArea type="auto">
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          striped
          aria-label={t('nodes.caption')}
          data-testid="nodes-table"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('nodes.columns.name')}</Table.Th>
              <Table.Th scope="col">{t('nodes.columns.status')}</Table.Th>
              <Table.Th scope="col">{t('nodes.columns.mag')}</Table.Th>
              {compact ? null : <Table.Th scope="col">{t('nodes.columns.labels')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {nodes.map((node, index) => {
              const online = node.status === NODE_ONLINE;
              return (
                // Names are the operator's and may repeat: the position keeps rows apart.
                // biome-ignore lint/suspicious/noArrayIndexKey: the list has no id, and is replaced as a whole
                <Table.Tr key={`${index}-${node.name}`} data-testid="node-row">
                  <Table.Th scope="row" fw={600} data-testid="node-name">
                    {node.name}
                  </Table.Th>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap" data-testid="node-status" data-status={online ? 'online' : 'offline'}>
                      <Box
                        component="span"
                        aria-hidden="true"
                        w={10}
                        h={10}
                        bg={online ? 'teal.8' : 'red.8'}
                        style={{ borderRadius: '50%', flex: 'none' }}
                      />
                      {/* Chinese words whole, as an order's status keeps them: they may break between any two
                          characters, and a long name beside them squeezed the column to a character's width. */}
                      <Text component="span" size="sm" style={{ wordBreak: 'keep-all' }}>
                        {online ? t('nodes.online') : t('nodes.offline')}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td data-testid="node-mag">
                    {t('nodes.multiplier', {
                      value: formatNumber(node.mag, REQUEST_LANGUAGE[language], { maximumFractionDigits: 2 }),
                    })}
                  </Table.Td>
                  {compact ? null : (
                    <Table.Td data-testid="node-tags">
                      <Group gap={4}>
                        {nodeTags(node.label).map((tag) => (
                          <Badge key={tag} variant="light" color="blue" c="blue.9" tt="none" data-testid="node-tag">
                            {tag}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Paper>
  );
}
