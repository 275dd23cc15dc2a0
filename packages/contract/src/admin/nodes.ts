// The console's nodes calls.
import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import {
  CONGESTION_CONTROLS,
  FINGERPRINTS,
  FLOWS,
  NETWORKS,
  PROTOCOLS,
  SS_CIPHERS,
  TLS_MODES,
} from '../nodes/node-settings.js';

export * from '../nodes/node-settings.js';

/** Hostnames (what the command line takes for --host, --sni and --host-header). */
export const HOSTNAME_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9a-f:.]{2,45}$/i;
export const REALITY_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const SHORT_ID_PATTERN = /^(?:[0-9a-f]{2}){0,8}$/i;
export const URL_PATH_PATTERN = /^\/[\x21-\x7e]{0,254}$/;
export const NODE_NAME_MAX = 64;
export const NODE_LABEL_MAX = 32;
export const NODE_MAX_RATE = 100;

const isHostname = (value: string) => HOSTNAME_PATTERN.test(value) && !/^[\d.]+$/.test(value);
const hostname = z.string().check(z.refine(isHostname, 'must be a hostname such as node1.example.com'));

/** The settings an operator chooses; which of them the protocol takes is `settingsFor`'s rule. */
export const NodeSettingsBodySchema = z.strictObject({
  network: z.optional(z.enum(NETWORKS)),
  path: z.optional(z.string().check(z.regex(URL_PATH_PATTERN))),
  hostHeader: z.optional(hostname),
  serviceName: z.optional(z.string().check(z.regex(/^[\w./-]{1,255}$/))),
  tls: z.optional(z.enum(TLS_MODES)),
  sni: z.optional(hostname),
  fingerprint: z.optional(z.enum(FINGERPRINTS)),
  flow: z.optional(z.enum(FLOWS)),
  realityPublicKey: z.optional(z.string().check(z.regex(REALITY_KEY_PATTERN))),
  realityPrivateKey: z.optional(z.string().check(z.regex(REALITY_KEY_PATTERN))),
  realityShortId: z.optional(z.string().check(z.regex(SHORT_ID_PATTERN))),
  cipher: z.optional(z.enum(SS_CIPHERS)),
  obfsPassword: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  congestionControl: z.optional(z.enum(CONGESTION_CONTROLS)),
});
export type NodeSettingsBody = z.infer<typeof NodeSettingsBodySchema>;

const NamesSchema = z.object({
  en: z.string().check(z.trim(), z.minLength(1), z.maxLength(NODE_NAME_MAX)),
  'pt-BR': z.string().check(z.trim(), z.maxLength(NODE_NAME_MAX)),
  'zh-Hans': z.string().check(z.trim(), z.maxLength(NODE_NAME_MAX)),
});

const nodeFields = {
  names: NamesSchema,
  protocol: z.enum(PROTOCOLS),
  /** A hostname or an IP address clients connect to. */
  host: z
    .string()
    .check(z.refine((value) => isHostname(value) || IPV4.test(value) || (value.includes(':') && IPV6.test(value)))),
  port: z.number().check(z.int(), z.minimum(1), z.maximum(65_535)),
  /** Traffic on the node counts this many times. */
  rate: z.number().check(z.gt(0), z.lte(NODE_MAX_RATE)),
  labels: z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(NODE_LABEL_MAX))).check(z.maxLength(8)),
  visible: z.boolean(),
  sort: z.number().check(z.int(), z.minimum(-1_000_000), z.maximum(1_000_000)),
  settings: NodeSettingsBodySchema,
};

export const NewNodeBodySchema = z.strictObject({
  ...nodeFields,
  rate: z._default(nodeFields.rate, 1),
  labels: z._default(nodeFields.labels, []),
  visible: z._default(nodeFields.visible, true),
  sort: z._default(nodeFields.sort, 0),
  settings: z._default(NodeSettingsBodySchema, {}),
});
export type NewNodeBody = z.input<typeof NewNodeBodySchema>;

/** The fields to change; settings given go over the stored ones, and those that no longer apply are dropped. */
export const UpdateNodeBodySchema = z.strictObject({
  names: z.optional(NamesSchema),
  protocol: z.optional(nodeFields.protocol),
  host: z.optional(nodeFields.host),
  port: z.optional(nodeFields.port),
  rate: z.optional(nodeFields.rate),
  labels: z.optional(nodeFields.labels),
  sort: z.optional(nodeFields.sort),
  settings: z.optional(NodeSettingsBodySchema),
});
export type UpdateNodeBody = z.input<typeof UpdateNodeBodySchema>;

/** A node as operators see it: every setting but the keys only the node needs, and how it is doing now. */
export const AdminNodeSchema = z.object({
  id: z.number(),
  names: z.object({ en: z.string(), 'pt-BR': z.string(), 'zh-Hans': z.string() }),
  protocol: z.enum(PROTOCOLS),
  host: z.string(),
  port: z.number(),
  rate: z.number(),
  labels: z.array(z.string()),
  visible: z.boolean(),
  sort: z.number(),
  settings: z.record(z.string(), z.union([z.string(), z.boolean()])),
  /** Its agent called the node API within the online window (5 minutes). */
  online: z.boolean(),
  /** Users its agent last reported online (kept 10 minutes). */
  onlineUsers: z.number(),
  /** Bytes the node carried (before its rate) since 00:00 UTC today. */
  todayUpload: z.number(),
  todayDownload: z.number(),
});
export type AdminNode = z.infer<typeof AdminNodeSchema>;

export const NodeIdParamsSchema = z.object({
  id: z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647)),
});

/** Every node, hidden ones too, in the customers' order, with its live status. */
export const adminGetNodes = endpoint({
  method: 'GET',
  path: '/api/nodes',
  response: envelopeOf(z.object({ nodes: z.array(AdminNodeSchema) })),
});

/** A node with its token and what to paste into each agent's configuration: answered this once. */
export const NodeWithTokenSchema = z.object({
  node: AdminNodeSchema,
  token: z.string(),
  /** The node's entry in the `Nodes` of V2bX's config.json. */
  v2bx: z.record(z.string(), z.unknown()),
  /** Its entry in the `Nodes` of XrayR's config.yml; null for a protocol XrayR does not serve (Hysteria 2, TUIC). */
  xrayr: z.nullable(z.record(z.string(), z.unknown())),
});
export type NodeWithToken = z.infer<typeof NodeWithTokenSchema>;

/** Adds a node; a setting its protocol does not take is refused (NODE_SETTING_INVALID, `data.field` names it). */
export const adminAddNode = endpoint({
  method: 'POST',
  path: '/api/nodes',
  body: NewNodeBodySchema,
  response: envelopeOf(NodeWithTokenSchema),
});

export const adminUpdateNode = endpoint({
  method: 'PUT',
  path: '/api/nodes/:id',
  params: NodeIdParamsSchema,
  body: UpdateNodeBodySchema,
  response: envelopeOf(AdminNodeSchema),
});

/** A new token (the old one is refused at once), answered this once with the agents' entries. */
export const adminRotateNodeToken = endpoint({
  method: 'POST',
  path: '/api/nodes/:id/token',
  params: NodeIdParamsSchema,
  response: envelopeOf(NodeWithTokenSchema),
});

/** Keeps the node out of customers' feeds and status page (its agent is still served). */
export const adminHideNode = endpoint({
  method: 'POST',
  path: '/api/nodes/:id/hide',
  params: NodeIdParamsSchema,
  response: envelopeOf(AdminNodeSchema),
});

export const adminShowNode = endpoint({
  method: 'POST',
  path: '/api/nodes/:id/show',
  params: NodeIdParamsSchema,
  response: envelopeOf(AdminNodeSchema),
});

/** Removes a node: it leaves the feeds and the status page, and its agent is refused. */
export const adminRemoveNode = endpoint({
  method: 'DELETE',
  path: '/api/nodes/:id',
  params: NodeIdParamsSchema,
  response: envelopeOf(z.object({ id: z.number() })),
});
