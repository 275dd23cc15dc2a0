import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { RefreshIcon } from '../../../components/ui/icons';
import { useResetSubscribeUrl } from '../api/reset-subscribe-url';

/**
 * Reset subscription information (spec section 2, user centre): after a confirmation that the old link and credential
 * stop working, a new link and credential; the server's message is shown.
 */
export function ResetSubscription() {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const reset = useResetSubscribeUrl({ onSuccess: () => setConfirming(false) });

  return (
    <Stack gap="md" align="flex-start">
      <Text>{t('subscription.reset.text')}</Text>
      <Button
        variant="default"
        leftSection={<RefreshIcon size={16} />}
        onClick={() => setConfirming(true)}
        data-testid="reset-subscription"
      >
        {t('subscription.reset.button')}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={t('subscription.reset.confirmTitle')}
        confirmLabel={t('subscription.reset.confirm')}
        cancelLabel={t('subscription.reset.cancel')}
        onConfirm={() => {
          if (!reset.isPending) reset.mutate();
        }}
        onClose={() => setConfirming(false)}
        loading={reset.isPending}
        danger
        testId="reset-dialog"
      >
        {t('subscription.reset.confirmText')}
      </ConfirmDialog>
    </Stack>
  );
}
