import { onTestFinished, vi } from 'vitest';

const bytes = (text: string) => new TextEncoder().encode(text).buffer;

/** The credential id as WebAuthn's JSON carries it: base64url of the raw id's bytes ("cred-1"). */
export const CREDENTIAL_ID = 'Y3JlZC0x';

/**
 * What happy-dom lacks of WebAuthn, and only that: `PublicKeyCredential` (so that the browser counts as able) and
 * `navigator.credentials`, whose `create` and `get` answer as an authenticator would. A test makes them fail with
 * `mockRejectedValueOnce(new DOMException(…, 'NotAllowedError'))`, as a browser does when its prompt is closed.
 */
export function fakeAuthenticator() {
  vi.stubGlobal('PublicKeyCredential', class PublicKeyCredential {});
  const credential = (response: object) => ({
    id: CREDENTIAL_ID,
    rawId: bytes('cred-1'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response,
    getClientExtensionResults: () => ({}),
  });
  const create = vi.fn(async (_options: CredentialCreationOptions) =>
    credential({
      clientDataJSON: bytes('{"type":"webauthn.create"}'),
      attestationObject: bytes('attestation'),
      getTransports: () => ['internal'],
    }),
  );
  const get = vi.fn(async (_options: CredentialRequestOptions) =>
    credential({
      clientDataJSON: bytes('{"type":"webauthn.get"}'),
      authenticatorData: bytes('authenticator'),
      signature: bytes('signature'),
      userHandle: bytes('operator-1'),
    }),
  );
  Object.defineProperty(navigator, 'credentials', { configurable: true, value: { create, get } });
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, 'credentials');
  });
  return { create, get };
}

/** Options as the server makes them: enough for @simplewebauthn/browser to hand to the browser. */
export const REGISTRATION_OPTIONS = {
  challenge: 'cmVnaXN0ZXI',
  rp: { name: 'Mutenet', id: 'localhost' },
  user: { id: 'b3BlcmF0b3ItMQ', name: 'owner@example.com', displayName: '' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  excludeCredentials: [],
};
export const SIGN_IN_OPTIONS = {
  challenge: 'c2lnbi1pbg',
  rpId: 'localhost',
  allowCredentials: [{ id: CREDENTIAL_ID, type: 'public-key', transports: ['internal'] }],
};
