import '@mantine/core/styles/Title.css';
import { Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { OrderList } from '../../features/orders/components/order-list';
import { useLanguage } from '../../i18n/use-language';
import { openCheckout } from '../../lib/open-checkout';
import { PATHS } from '../../lib/paths';
import { inMode, useUrlOptions } from '../use-url-options';

/** Below Mantine's `sm` breakpoint, where the side menu folds into a drawer, the orders are cards. */
const PHONE_QUERY = '(max-width: 47.99em)';

/** My orders: details open the order (and, while it waits for payment, its payment page in a new tab). */
export default function OrdersRoute() {
  const { t } = useTranslation();
  const { mobile } = useUrlOptions();
  const { language } = useLanguage();
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const navigate = useNavigate();

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('nav.myOrder')}
      </Title>
      <OrderList
        layout={mobile || phone ? 'cards' : 'table'}
        shopHref={inMode(PATHS.shop, mobile)}
        onDetails={(order) => {
          if (order.status === 'waiting') openCheckout(order.no, language);
          void navigate(inMode(`${PATHS.orderStatus}/${order.no}`, mobile));
        }}
      />
    </Stack>
  );
}
