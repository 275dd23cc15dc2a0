import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { WarningAlert } from '../../../components/ui/warning-alert';
import { useText } from '../../i18n';
import { useSession } from '../../session/use-session';
import { ApiTokensSection } from './api-tokens-section';
import { securityStrings } from './i18n';
import { PasskeysSection } from './passkeys-section';

/** Every operator's own passkeys; for owners, the API tokens scripts use. */
export default function SecurityScreen() {
  const { t } = useText(securityStrings);
  const session = useSession().data;
  const noSecondFactor = session && !session.totpEnrolled && session.passkeys === 0;
  return (
    <Stack gap="xl">
      <Title order={1}>{t('title')}</Title>
      {noSecondFactor && (
        <WarningAlert>
          {t('noSecondFactor')}{' '}
          <Anchor component={Link} to="/account/totp" c="inherit" underline="always">
            {t('setUpTotp')}
          </Anchor>
        </WarningAlert>
      )}
      <PasskeysSection />
      {session?.permissions.includes('tokens.manage') && <ApiTokensSection />}
    </Stack>
  );
}
