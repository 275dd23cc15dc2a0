import { Alert, Button, Code, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { adminBeginTotp, adminConfirmTotp } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { type FormEvent, useEffect, useState } from 'react';
import { consoleCall } from '../api';
import { ErrorAlert } from '../error-alert';
import { useText } from '../i18n';
import { consoleStrings } from '../strings';
import { useReloadSession } from './use-session';

/**
 * Enrols an authenticator app: a new secret, drawn as a QR code and written out to type, confirmed by a first code.
 * `titleOrder` 2 when it is one choice of a page (the second factor an owner must set up).
 */
export function EnrolTotp({ titleOrder = 1 }: { titleOrder?: 1 | 2 }) {
  const { t } = useText(consoleStrings);
  const reload = useReloadSession();
  const [code, setCode] = useState('');
  const begin = useMutation({ mutationFn: () => consoleCall(adminBeginTotp) });
  const confirm = useMutation({
    mutationFn: () => consoleCall(adminConfirmTotp, { body: { code } }),
    onSuccess: () => reload(),
  });
  const { mutate: start } = begin;
  useEffect(() => start(), [start]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={420}>
        <Title order={titleOrder}>{t('enrolTitle')}</Title>
        <Text>{t('enrolIntro')}</Text>
        <ErrorAlert error={begin.error} />
        {begin.isPending && <Loader aria-label={t('loading')} />}
        {begin.data && (
          <>
            <QRCodeSVG value={begin.data.uri} size={192} role="img" aria-label={t('qrLabel')} title={t('qrLabel')} />
            <div>
              <Text id="totp-secret-label" fw={500}>
                {t('secretLabel')}
              </Text>
              <Code aria-labelledby="totp-secret-label" data-testid="totp-secret">
                {begin.data.secret}
              </Code>
            </div>
          </>
        )}
        {confirm.isSuccess && <Alert color="green">{t('enrolDone')}</Alert>}
        <ErrorAlert error={confirm.error} />
        <TextInput
          label={t('code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" loading={confirm.isPending} disabled={!begin.data}>
          {t('confirmCode')}
        </Button>
      </Stack>
    </form>
  );
}
