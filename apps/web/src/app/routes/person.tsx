import '@mantine/core/styles/Paper.css';
import { Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { ResetSubscription } from '../../features/subscription/components/reset-subscription';
import { PATHS } from '../../lib/paths';

/** The user centre: account settings (change the password, reset the subscription information). */
export default function PersonRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('nav.userCentre')}
      </Title>
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="change-password-title">
        <Title order={2} size="h4" mb="md" id="change-password-title">
          {t('auth.change.title')}
        </Title>
        <ChangePasswordForm onChanged={() => void navigate(PATHS.login, { replace: true })} />
      </Paper>
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="reset-subscription-title">
        <Title order={2} size="h4" mb="md" id="reset-subscription-title">
          {t('subscription.reset.title')}
        </Title>
        <ResetSubscription />
      </Paper>
    </Stack>
  );
}
