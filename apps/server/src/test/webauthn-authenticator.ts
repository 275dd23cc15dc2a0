import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** WebAuthn's authenticator-data flags: the user was present and verified, and a credential is attached. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED_CREDENTIAL = 0x40;

/** COSE keys (RFC 9053): an EC2 key on P-256 for ES256. */
const COSE = { kty: 1, alg: 3, crv: -1, x: -2, y: -3, EC2: 2, ES256: -7, P256: 1 } as const;

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

/** What a ceremony may be made to get wrong, as an attacker or a broken authenticator would. */
export type Tampering = { origin?: string; counter?: number; badSignature?: boolean };

/**
 * A passkey on a software authenticator, as a browser hands its answers to the console: an ES256 key of node:crypto,
 * `none` attestation, the user present and verified. It answers the server's options with the JSON that
 * @simplewebauthn/browser's startRegistration / startAuthentication would send.
 */
export class SoftwareAuthenticator {
  readonly credentialId = base64url(randomBytes(32));
  /** The signature counter, raised by each assertion. */
  counter = 0;
  readonly #keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  /** `origin`: the page the browser runs (PUBLIC_URL's origin); the RP ID comes from the server's options. */
  constructor(readonly origin: string) {}

  #clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  #cosePublicKey(): Uint8Array {
    const jwk = this.#keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [COSE.kty, COSE.EC2],
        [COSE.alg, COSE.ES256],
        [COSE.crv, COSE.P256],
        [COSE.x, Buffer.from(jwk.x ?? '', 'base64url')],
        [COSE.y, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
  }

  /** Answers `navigator.credentials.create` with a new credential (RegistrationResponseJSON). */
  register(options: { challenge: string; rp: { id?: string } }, tampering: Tampering = {}) {
    const credentialId = Buffer.from(this.credentialId, 'base64url');
    const credentialLength = Buffer.alloc(2);
    credentialLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(options.rp.id ?? ''),
      Buffer.from([USER_PRESENT | USER_VERIFIED | ATTESTED_CREDENTIAL]),
      uint32(this.counter),
      Buffer.alloc(16), // AAGUID: none told
      credentialLength,
      credentialId,
      this.#cosePublicKey(),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: base64url(this.#clientData('webauthn.create', options.challenge, tampering.origin)),
        attestationObject: base64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get` with a signed assertion (AuthenticationResponseJSON). */
  assert(options: { challenge: string; rpId?: string }, tampering: Tampering = {}) {
    this.counter = tampering.counter ?? this.counter + 1;
    const authData = Buffer.concat([
      sha256(options.rpId ?? ''),
      Buffer.from([USER_PRESENT | USER_VERIFIED]),
      uint32(this.counter),
    ]);
    const clientData = this.#clientData('webauthn.get', options.challenge, tampering.origin);
    // ES256: an ECDSA P-256 signature, DER-encoded, over the authenticator data and the client data's hash.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.#keys.privateKey);
    if (tampering.badSignature) signature[signature.length - 1] = (signature[signature.length - 1] ?? 0) ^ 0xff;
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: base64url(clientData),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}
