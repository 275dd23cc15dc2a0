import { Button, Container, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { adminChangePassword } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { consoleCall } from '../api';
import { ErrorAlert } from '../error-alert';
import { useText } from '../i18n';
import { consoleStrings } from '../strings';
import { useReloadSession } from './use-session';

/** The first sign-in (or one after a reset) with a one-time password: the operator chooses their own. */
export function ChangePasswordScreen() {
  const { t } = useText(consoleStrings);
  const reload = useReloadSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => consoleCall(adminChangePassword, { body: { current, next } }),
    onSuccess: () => reload(),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <Container size={420} py="xl" component="main">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1}>{t('changePasswordTitle')}</Title>
          <Text>{t('changePasswordIntro')}</Text>
          <ErrorAlert error={change.error} />
          <PasswordInput
            label={t('currentPassword')}
            autoComplete="current-password"
            required
            value={current}
            onChange={(event) => setCurrent(event.currentTarget.value)}
          />
          <PasswordInput
            label={t('newPassword')}
            autoComplete="new-password"
            required
            value={next}
            onChange={(event) => setNext(event.currentTarget.value)}
          />
          <Button type="submit" loading={change.isPending}>
            {t('changePassword')}
          </Button>
        </Stack>
      </form>
    </Container>
  );
}
