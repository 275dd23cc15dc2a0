import { Group, Text } from '@mantine/core';
import type { OrderStatus } from '@mutenet/contract';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertIcon,
  CardIcon,
  CheckCircleIcon,
  ClockIcon,
  HourglassIcon,
  QuestionIcon,
  UndoIcon,
  XCircleIcon,
} from '../../../components/ui/icons';

type Look = { icon: ComponentType<{ size?: number }>; color: string };

/** The icon and colour of each status; the label (spec section 4) carries the meaning, the icon only repeats it. */
export const STATUS_LOOK: Record<OrderStatus, Look> = {
  waiting: { icon: CardIcon, color: 'orange.9' },
  paying: { icon: CardIcon, color: 'blue.9' },
  doing: { icon: HourglassIcon, color: 'blue.9' },
  success: { icon: CheckCircleIcon, color: 'teal.9' },
  failed: { icon: AlertIcon, color: 'red.9' },
  rejected: { icon: AlertIcon, color: 'red.9' },
  cancel: { icon: XCircleIcon, color: 'gray.7' },
  close: { icon: XCircleIcon, color: 'gray.7' },
  timeout: { icon: ClockIcon, color: 'gray.7' },
  refunded: { icon: UndoIcon, color: 'gray.7' },
  unused: { icon: QuestionIcon, color: 'gray.7' },
};

/** A status as the lists show it: its icon and its label. */
export function OrderStatusLabel({
  status,
  size = 'sm',
  justify,
}: {
  status: OrderStatus;
  size?: 'sm' | 'md';
  justify?: 'flex-end';
}) {
  const { t } = useTranslation();
  const { icon: Icon, color } = STATUS_LOOK[status];
  return (
    <Group gap={6} wrap="nowrap" justify={justify} data-testid="order-status" data-status={status}>
      <Text component="span" c={color} display="inline-flex">
        <Icon size={size === 'sm' ? 16 : 20} />
      </Text>
      {/* Chinese words whole: they may break between any two characters, and the orders table's squeezed column
          stacked them a character a line. Other languages still wrap at their spaces. */}
      <Text component="span" size={size} style={{ wordBreak: 'keep-all' }}>
        {t(`orders.status.${status}`)}
      </Text>
    </Group>
  );
}
