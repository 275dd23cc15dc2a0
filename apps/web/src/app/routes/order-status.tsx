import '@mantine/core/styles/Title.css';
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { OrderDetails } from '../../features/orders/components/order-details';
import { useLanguage } from '../../i18n/use-language';
import { openCheckout } from '../../lib/open-checkout';
import { PATHS } from '../../lib/paths';
import { inMode, useUrlOptions } from '../use-url-options';

/** The order details, `/status/{orderNo}`; no tutorial button in mobile mode. */
export default function OrderStatusRoute() {
  const { t } = useTranslation();
  const { params = '' } = useParams();
  const { mobile } = useUrlOptions();
  const { language } = useLanguage();
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1} size="h2">
        {t('nav.orderDetails')}
      </Title>
      <OrderDetails
        orderNo={params}
        tutorialHref={mobile ? null : PATHS.knowledgeBase}
        ordersHref={inMode(PATHS.orders, mobile)}
        onPay={(order) => openCheckout(order.no, language)}
      />
    </Stack>
  );
}
