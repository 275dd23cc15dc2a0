import type { Generated } from 'kysely';

/** Times are epoch milliseconds in integer columns, the same on SQLite and PostgreSQL. */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  invite_code: string | null;
  /** The proxy credential nodes receive. */
  uuid: string;
  /** 0 or 1 */
  banned: Generated<number>;
  created_at: number;
  /** The subscription token is derived from the user's id and this nonce; a reset draws a new one. */
  sub_nonce: string | null;
  sub_token_hash: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
}

/** Text in each request language, stored as JSON: `{"en": …, "pt-BR": …, "zh-Hans": …}`. */
export type LocalizedJson = string;

export interface CurrenciesTable {
  code: string;
  name: string;
  /** Digits after the decimal point: 2 for USD and BRL, 0 for CLP. */
  decimals: Generated<number>;
  enabled: Generated<number>;
  sort: Generated<number>;
}

export interface PlansTable {
  id: Generated<number>;
  plan_group: 'traffic' | 'durational';
  names: LocalizedJson;
  contents: LocalizedJson;
  visible: Generated<number>;
  sort: Generated<number>;
  created_at: number;
}

export interface PackagesTable {
  id: Generated<number>;
  plan_id: number;
  label: string;
  days: number;
  traffic_bytes: number;
  /** Removed packages stay for the orders that name them. */
  removed: Generated<number>;
  sort: Generated<number>;
}

export interface PackagePricesTable {
  package_id: number;
  currency: string;
  /** Minor units: the old, struck-through price. */
  price_minor: number;
  /** Minor units: what is charged. */
  real_minor: number;
}

export interface OrdersTable {
  id: Generated<number>;
  no: string;
  user_id: number;
  plan_id: number;
  package_id: number;
  /** What the customer bought, as it was named then. */
  plan_names: LocalizedJson;
  package_label: string;
  /** The package's terms when it was bought: a later change of the package does not alter them. */
  plan_group: Generated<'traffic' | 'durational'>;
  days: number;
  traffic_bytes: number;
  currency: string;
  amount_minor: number;
  /** The currency's decimals when the order was made. */
  decimals: number;
  status: string;
  /** The gateway the customer last opened, then the one that was paid. */
  gateway: string | null;
  /** The gateway's id of the payment that paid the order: what a refund names. */
  payment_ref: string | null;
  created_at: number;
  updated_at: number;
  /** When an unpaid order times out. */
  due_at: number;
}

export interface PaymentEventsTable {
  id: Generated<number>;
  gateway: string;
  event_id: string;
  order_id: number;
  outcome: string;
  amount_minor: number | null;
  currency: string | null;
  /** 1 when the event moved its order; a refund or chargeback left at 0 (it came first) applies with its success. */
  applied: Generated<number>;
  /** The gateway's id of the payment the event is about, when it names one. */
  payment_ref: string | null;
  created_at: number;
}

/** A payment started at a gateway, asked about by reconciliation until its order settles. */
export interface PaymentAttemptsTable {
  id: Generated<number>;
  order_id: number;
  gateway: string;
  reference: string;
  created_at: number;
  check_at: number;
}

export interface OperatorsTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: string;
  must_change_password: Generated<number>;
  totp_secret: string | null;
  totp_last_step: number | null;
  disabled: Generated<number>;
  created_at: number;
}

export interface OperatorSessionsTable {
  id: Generated<number>;
  operator_id: number;
  token_hash: string;
  verified: Generated<number>;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface OperatorPasskeysTable {
  id: Generated<number>;
  operator_id: number;
  /** base64url */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: Generated<number>;
  /** Comma-separated. */
  transports: Generated<string>;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface ApiTokensTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  role: string;
  created_by: number;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  operator_id: number | null;
  token_id: number | null;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  before: string | null;
  after: string | null;
  ip: string;
  created_at: number;
}

export interface UserPackagesTable {
  id: Generated<number>;
  user_id: number;
  order_id: number;
  plan_id: number;
  package_id: number;
  traffic_total: number;
  traffic_used: Generated<number>;
  days: number;
  starts_at: number;
  ends_at: number;
  /** Set when a refund or chargeback ended it early. */
  ended_at: number | null;
  created_at: number;
  plan_group: Generated<'traffic' | 'durational'>;
  /** The 30-day period the traffic counters belong to (always 0 for traffic packages). */
  period: Generated<number>;
  upload_used: Generated<number>;
  download_used: Generated<number>;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface NodesTable {
  id: Generated<number>;
  names: LocalizedJson;
  /** Comma-separated. */
  labels: Generated<string>;
  /** Traffic on this node counts this many times. */
  rate: Generated<number>;
  protocol: string;
  host: string;
  port: number;
  /** JSON: transport, TLS and protocol settings. */
  settings: string;
  visible: Generated<number>;
  sort: Generated<number>;
  token_hash: string;
  created_at: number;
  updated_at: number;
}

/** One row (id 1): raised by trigger on every write to the catalogue's tables (migration 0004). */
export interface CatalogVersionTable {
  id: number;
  version: number;
}

/** One record per traffic push counted (migration 0009), kept a day. */
export interface TrafficPushesTable {
  id: string;
  node_id: number;
  digest: string;
  pushed_at: number;
}

/** The bytes a node carried on one UTC day (`day`: its 00:00 UTC), before the node's rate. */
export interface NodeTrafficDaysTable {
  day: number;
  node_id: number;
  upload: number;
  download: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  currencies: CurrenciesTable;
  plans: PlansTable;
  packages: PackagesTable;
  package_prices: PackagePricesTable;
  orders: OrdersTable;
  payment_events: PaymentEventsTable;
  payment_attempts: PaymentAttemptsTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_passkeys: OperatorPasskeysTable;
  api_tokens: ApiTokensTable;
  audit_log: AuditLogTable;
  user_packages: UserPackagesTable;
  settings: SettingsTable;
  nodes: NodesTable;
  traffic_pushes: TrafficPushesTable;
  node_traffic_days: NodeTrafficDaysTable;
  catalog_version: CatalogVersionTable;
}
