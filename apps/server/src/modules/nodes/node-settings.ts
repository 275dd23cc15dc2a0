import { CONGESTION_CONTROLS, NETWORKS, PROTOCOLS, SS_CIPHERS, TLS_MODES } from '@mutenet/contract';
import { z } from 'zod';

/**
 * Transport, TLS and protocol settings of a node, kept as JSON: which apply depends on the protocol, by the contract's
 * `settingsFor`.
 */
export const NodeSettingsSchema = z.object({
  network: z.enum(NETWORKS).default('tcp'),
  path: z.string().max(255).optional(),
  hostHeader: z.string().max(255).optional(),
  serviceName: z.string().max(255).optional(),
  tls: z.enum(TLS_MODES).default('none'),
  sni: z.string().max(255).optional(),
  fingerprint: z.string().max(32).optional(),
  allowInsecure: z.boolean().optional(),
  flow: z.string().max(32).optional(),
  realityPublicKey: z.string().max(128).optional(),
  realityPrivateKey: z.string().max(128).optional(),
  realityShortId: z.string().max(32).optional(),
  cipher: z.enum(SS_CIPHERS).optional(),
  /** Shadowsocks 2022: the server's own key (base64), drawn when the node is added. */
  serverKey: z.string().max(128).optional(),
  obfsPassword: z.string().max(128).optional(),
  congestionControl: z.enum(CONGESTION_CONTROLS).optional(),
});
export type NodeSettings = z.infer<typeof NodeSettingsSchema>;

export const NodeProtocolSchema = z.enum(PROTOCOLS);

/** Bytes of a Shadowsocks 2022 key for each cipher. */
export function ss2022KeyLength(cipher: string | undefined): number | undefined {
  if (cipher === '2022-blake3-aes-128-gcm') return 16;
  if (cipher === '2022-blake3-aes-256-gcm' || cipher === '2022-blake3-chacha20-poly1305') return 32;
  return undefined;
}
