import '@mantine/core/styles/Title.css';
import { Stack, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ProductConfigurator } from '../../features/catalog/components/product-configurator';
import { ProductLinkInvalid } from '../../features/catalog/components/product-link-invalid';
import { decodeProduct } from '../../features/catalog/utils/product-param';
import { PlaceOrderButton } from '../../features/orders/components/place-order-button';
import { useLanguage } from '../../i18n/use-language';
import { openCheckout } from '../../lib/open-checkout';
import { PATHS } from '../../lib/paths';
import { inMode, useUrlOptions } from '../use-url-options';

/**
 * Configure and order a plan: the catalogue's configurator with the orders' place-order button. A new order opens
 * its payment page in a new tab and its details here.
 */
export default function ShopConfigureRoute() {
  const { t } = useTranslation();
  const { obj = '' } = useParams();
  const { mobile } = useUrlOptions();
  const { language } = useLanguage();
  const navigate = useNavigate();
  const product = useMemo(() => decodeProduct(obj), [obj]);
  const toDetails = (orderNo: string) => void navigate(inMode(`${PATHS.orderStatus}/${orderNo}`, mobile));

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('nav.configure')}
      </Title>
      {product ? (
        <ProductConfigurator
          product={product}
          renderPlaceOrder={(selection) => (
            <PlaceOrderButton
              selection={selection}
              onCreated={(orderNo) => {
                openCheckout(orderNo, language);
                toDetails(orderNo);
              }}
              onUnfinished={toDetails}
            />
          )}
        />
      ) : (
        <ProductLinkInvalid shopHref={inMode(PATHS.shop, mobile)} />
      )}
    </Stack>
  );
}
