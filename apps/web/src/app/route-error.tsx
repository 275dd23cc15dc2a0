import { Button, Center, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * What a route shows when its screen cannot load (its code did not arrive: the server unreachable, say): a message in
 * the customer's language, announced, and a button that loads the page again. Part of the first bundle, so that it
 * shows whatever the network does. Inside the shell it takes the screen's place; elsewhere it is the page's main part.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const { t } = useTranslation();
  const message = (
    <Center py="xl">
      <Stack align="center" gap="md" role="alert" data-testid="route-error">
        <Text component="h1" fw={700} size="lg" m={0}>
          {t('app.screenLoadFailed')}
        </Text>
        <Text>{t('app.checkConnection')}</Text>
        <Button onClick={() => window.location.reload()}>{t('common.retry')}</Button>
      </Stack>
    </Center>
  );
  return standalone ? <main>{message}</main> : message;
}
