import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  adminAddPasskey,
  adminBeginPasskeyRegistration,
  adminBeginPasskeySignIn,
  adminPasskeySignIn,
  ERRORS,
  PASSKEY_NAME_MAX_LENGTH,
  type PasskeyOptions,
} from '@mutenet/contract';
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, consoleCall } from '../api';
import { ErrorAlert } from '../error-alert';
import { useText } from '../i18n';
import { sessionStrings } from './i18n';
import { SESSION_KEY } from './use-session';

/** The operator's passkeys, as the Security screen lists them. */
export const PASSKEYS_KEY = ['console', 'passkeys'] as const;

export const passkeysSupported = () => browserSupportsWebAuthn();

// The options are WebAuthn's JSON as @simplewebauthn/server made them; the contract checks only their challenge.
const creationOptions = (options: PasskeyOptions) => options as unknown as PublicKeyCredentialCreationOptionsJSON;
const requestOptions = (options: PasskeyOptions) => options as unknown as PublicKeyCredentialRequestOptionsJSON;

/** Makes a passkey in the browser for the signed-in operator and adds it under `name`. */
async function addPasskey(name: string) {
  const { options } = await consoleCall(adminBeginPasskeyRegistration);
  const response = await startRegistration({ optionsJSON: creationOptions(options) });
  return consoleCall(adminAddPasskey, { body: { name, response } });
}

/** Completes a sign-in whose password was right with one of the operator's passkeys (fresh options each try). */
export async function signInWithPasskey() {
  const { options } = await consoleCall(adminBeginPasskeySignIn);
  const response = await startAuthentication({ optionsJSON: requestOptions(options) });
  return consoleCall(adminPasskeySignIn, { body: response });
}

/**
 * Why a passkey ceremony failed, in the operator's words: the browser's refusals (the prompt closed or timed out, an
 * authenticator that holds a passkey of theirs already, no WebAuthn) and, at sign-in, a passkey the server refused
 * (LOGIN_FAILED) or a pending sign-in that expired (401). The server's other answers as any call's.
 */
export function PasskeyErrorAlert({ error }: { error: unknown }) {
  const { t } = useText(sessionStrings);
  if (!error) return null;
  let message: string;
  if (error instanceof ApiError) {
    if (error.code === ERRORS.LOGIN_FAILED.code) message = t('passkeyRejected');
    else if (error.status === 401) message = t('passkeyExpired');
    else return <ErrorAlert error={error} />;
  } else if (!passkeysSupported()) message = t('passkeyUnsupported');
  else if (error instanceof Error && error.name === 'InvalidStateError') message = t('passkeyRegistered');
  else message = t('passkeyCancelled');
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}

/**
 * Adds a passkey with a name: the browser makes it (the device's lock or a security key), the server keeps its public
 * key. The session is read again after, as it may have been waiting for a second factor.
 */
export function AddPasskeyForm({ titleOrder = 2 }: { titleOrder?: 1 | 2 }) {
  const { t } = useText(sessionStrings);
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: () => addPasskey(name),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="add-passkey-title">
      <Stack maw={420} gap="xs">
        <Title order={titleOrder} size="h3" id="add-passkey-title">
          {t('passkeyTitle')}
        </Title>
        <Text>{t('passkeyIntro')}</Text>
        {!passkeysSupported() && <Text>{t('passkeyUnsupported')}</Text>}
        <PasskeyErrorAlert error={add.error} />
        <div aria-live="polite">
          {add.isSuccess && <Alert color="green">{t('passkeyAdded', { name: add.data.passkey.name })}</Alert>}
        </div>
        <TextInput
          label={t('passkeyName')}
          description={t('passkeyNameHint')}
          required
          maxLength={PASSKEY_NAME_MAX_LENGTH}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        {/* The browser's prompt comes only for a passkey with a name (the server would refuse it after). */}
        <Button type="submit" loading={add.isPending} disabled={!passkeysSupported() || name.trim() === ''}>
          {t('addPasskey')}
        </Button>
      </Stack>
    </form>
  );
}
