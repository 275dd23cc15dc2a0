import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useText } from '../i18n';
import { EnrolTotp } from './enrol-totp';
import { sessionStrings } from './i18n';
import { AddPasskeyForm, passkeysSupported } from './passkey';

/**
 * The step an owner without a second factor must take before the console opens: an authenticator app or a passkey,
 * their choice. The app's enrolment begins only when its tab is shown (each begun enrolment is a new secret).
 */
export function EnrolSecondFactor() {
  const { t } = useText(sessionStrings);
  return (
    <Stack component="main" p="md" maw={480}>
      <Title order={1}>{t('enrolTitle')}</Title>
      <Text>{t('enrolRequired')}</Text>
      <Tabs defaultValue="totp" keepMounted={false}>
        <Tabs.List aria-label={t('factorChoice')}>
          <Tabs.Tab value="totp">{t('totpTab')}</Tabs.Tab>
          {passkeysSupported() && <Tabs.Tab value="passkey">{t('passkeyTab')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="totp" pt="md">
          <EnrolTotp titleOrder={2} />
        </Tabs.Panel>
        <Tabs.Panel value="passkey" pt="md">
          <AddPasskeyForm />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
