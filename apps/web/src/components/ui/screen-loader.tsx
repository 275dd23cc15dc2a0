import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a screen's code is loading. */
export function ScreenLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status">
      <Loader size="md" aria-label={t('app.loading')} />
    </Center>
  );
}
