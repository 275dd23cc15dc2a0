/**
 * What the feed renders: each node the customer may use, resolved with the customer's own credential. Renderers are
 * pure functions of these and know nothing of the database.
 */
export {
  NETWORKS,
  type Network,
  PROTOCOLS,
  type Protocol,
  SS_CIPHERS,
  type SsCipher,
  TLS_MODES,
  type TlsMode,
} from '@mutenet/contract';

import type { Network, Protocol, SsCipher, TlsMode } from '@mutenet/contract';

export type Transport = {
  network: Network;
  /** ws and httpupgrade */
  path?: string;
  /** ws and httpupgrade: the Host header */
  host?: string;
  /** grpc */
  serviceName?: string;
};

export type Tls = {
  mode: TlsMode;
  /** Server name (SNI); defaults to the host when absent. */
  sni?: string;
  /** uTLS fingerprint, e.g. chrome. */
  fingerprint?: string;
  realityPublicKey?: string;
  realityShortId?: string;
  allowInsecure?: boolean;
  alpn?: string[];
};

export type ResolvedProxy = {
  id: number;
  /** Display name in the request's language, unique within one feed. */
  name: string;
  protocol: Protocol;
  host: string;
  port: number;
  /** vless, vmess and tuic: the UUID; trojan, hysteria2 and tuic: also the password; shadowsocks: see `password`. */
  uuid: string;
  /** The password the client sends: the UUID, or for shadowsocks 2022 `serverKey:userKey` (both base64). */
  password: string;
  /** vless: xtls-rprx-vision or absent. */
  flow?: string;
  /** shadowsocks */
  cipher?: SsCipher;
  /** hysteria2: salamander obfuscation password, when used. */
  obfsPassword?: string;
  /** tuic: bbr, cubic or new_reno. */
  congestionControl?: string;
  transport: Transport;
  tls: Tls;
};
