import { Anchor } from '@mantine/core';
import type { AdminOrder } from '@mutenet/contract';
import { Link } from 'react-router';
import { useText } from '../../i18n';
import { useSession } from '../../session/use-session';
import { ordersStrings } from './i18n';

/** An order's customer by email (or id, for one without), linked to their page when the role may read customers. */
export function CustomerLink({ customer }: { customer: AdminOrder['customer'] }) {
  const { t } = useText(ordersStrings);
  const session = useSession();
  const name = customer.email ?? t('customerId', { id: customer.id });
  if (!session.data?.permissions.includes('customers.read')) return name;
  return (
    <Anchor component={Link} to={`/customers/${customer.id}`}>
      {name}
    </Anchor>
  );
}
