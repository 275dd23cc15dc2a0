import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { WarningAlert } from '../../../components/ui/warning-alert';

/** A configure link that does not hold a product: say so and lead back to the shop. */
export function ProductLinkInvalid({ shopHref }: { shopHref: string }) {
  const { t } = useTranslation();
  return (
    <WarningAlert title={t('configure.invalidTitle')} testId="product-invalid">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('configure.invalidText')}</Text>
        <Button component={Link} to={shopHref} variant="default" data-testid="back-to-shop">
          {t('configure.backToShop')}
        </Button>
      </Stack>
    </WarningAlert>
  );
}
