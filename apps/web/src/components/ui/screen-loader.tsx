import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Shown while a screen's code or data is loading: a status region with a spinner named "Loading…". The spinner is an
 * image (a plain span may not carry a name: axe's aria-prohibited-attr).
 */
export function ScreenLoader({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" data-testid={testId}>
      <Loader size="md" role="img" aria-label={t('app.loading')} />
    </Center>
  );
}
