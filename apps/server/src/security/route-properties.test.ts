import { MESSAGES } from '@mutenet/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePage } from '../plugins/app/web.js';
import { login, signUp } from '../test/accounts.js';
import { seedCatalog } from '../test/catalog.js';
import { type DatabaseSnapshot, snapshotDatabase } from '../test/db-snapshot.js';
import { type CallResult, httpClient } from '../test/http-client.js';
import { rawRequest } from '../test/raw-request.js';
import { type RouteKey, registeredRoutes } from '../test/routes.js';
import { addNodes } from '../test/subscription.js';
import { DATABASES, startTestApp, type TestApp, type TestDatabase } from '../test/test-app.js';
import { CHECKOUT_HTML, CONSOLE_HTML, INDEX_HTML, writeWebDist } from '../test/web-dist.js';

/** Requests per route and run: enough to meet each kind of input a few times, within the suite's time. */
const RUNS: Record<TestDatabase, number> = { sqlite: 15, postgres: 4 };
const BODY_LIMIT = 64 * 1024;
const NODE_API = '/api/v1/server/UniProxy';

const KNOWN_MESSAGES = new Set(Object.values(MESSAGES).flatMap((texts) => Object.values(texts)));
// A stack frame, a source path or an error class name: none of them may reach a client.
const STACK_TRACE = /\bat\s+\S+\s+\(|\.[cm]?[jt]s:\d+|node_modules|[A-Z][a-z]+Error\b/;

// ---------------------------------------------------------------------------------------------------------------
// What an attacker sends

/** Each kind of hostile text once by name; random text of several alphabets is drawn beside them. */
const HOSTILE_TEXT = [
  '',
  ' ',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "1'; select pg_sleep(5); --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}<%= 7*7 %>',
  '../../../etc/passwd',
  'admin\u202egnp.exe',
  'שלום עולם',
  'e\u0301\u0302\u0303\u0304\u0305',
  '𝕏😀🇧🇷👍🏽',
  'a\u0000b',
  '\u0001\u0007\u001b[31m\u007f\r\n\t',
  '\ud800',
  'x\udfffy',
  '\ufeff\u200b',
  'null',
  'NaN',
  '-1',
  '1e309',
  '99999999999999999999',
  'true',
  '__proto__',
  'constructor',
];

const charsIn = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code));
const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  fc.string(),
  // Astral characters, right-to-left scripts, combining marks: whole graphemes and any code point.
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: charsIn(0, 0x1f) }),
  fc.string({ unit: charsIn(0xd800, 0xdfff), minLength: 1 }),
);
/** A field may also fill a body to just under its limit, or just over it. */
const fieldText = fc.oneof(
  { weight: 8, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(BODY_LIMIT - 100), 'x'.repeat(BODY_LIMIT + 1)) },
);
/** What a JSON field holds when it is not the string it should be. */
const jsonValue = fc.oneof(
  fieldText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 3 }),
);

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** Percent-encoded UTF-8, as a client sends it (a lone surrogate becomes U+FFFD on the way). */
const encode = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

/** Bytes no client should send in a query string or a form: bad escapes, brackets, prototype keys. */
const BROKEN_PAIRS = [
  '%zz=%',
  '%E0%A4=%ED%A0%80',
  '%00=%0d%0a',
  '&&==&&',
  'a[b][c]=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
];
/**
 * Path segments that a router or a file server could misread. Dot segments are not among them: the router resolves
 * them first, as a browser does, so they lead to another route (a property of their own, below). The last is longer
 * than the router reads a parameter.
 */
const BROKEN_SEGMENTS = ['%zz', '%', '%2F', '%5C', '%00', '%ED%A0%80', '%C0%AF', ';', 'a;b=c', '%25', 'x'.repeat(200)];
const DOT_SEGMENTS = ['..', '.', '%2e%2e', '%2E.', '.%2e', '%2e'];

type Values = Record<string, fc.Arbitrary<string>>;

/** `name=value` pairs: the call's own names (so duplicates occur), random ones, and broken ones. */
function pairs(known: Values, value: fc.Arbitrary<string>) {
  const pair = (name: string) => (v: string) => `${encode(name)}=${encode(v)}`;
  // Each of the call's own names is usually there once, now and then missing or sent twice.
  const own = Object.entries(known).map(([name, values]) => {
    const one = fc.oneof(values, value).map(pair(name));
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 6, arbitrary: fc.tuple(one) },
      { weight: 1, arbitrary: fc.tuple(one, one) },
    );
  });
  const random = fc.tuple(text, value).map(([name, v]) => pair(name)(v));
  const extra = fc.array(fc.oneof(random, fc.constantFrom(...BROKEN_PAIRS)), { maxLength: 3 });
  return fc.tuple(fc.tuple(...own), extra).map(([mine, others]) => [...mine.flat(), ...others].join('&'));
}

type Body = { type?: string; data: string | Buffer };
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/x-www-form-urlencoded; charset=utf-16',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded-evil',
  'application/json, text/plain',
  '*/*',
  '',
];

/**
 * A body of any kind: none, a form (with repeated and unknown fields), JSON of any shape (lone surrogates travel as
 * `\ud800` escapes), a form labelled JSON or JSON labelled a form, random bytes, and content types no call takes.
 */
function bodies(fields: Values, json?: fc.Arbitrary<unknown>): fc.Arbitrary<Body | undefined> {
  const names = Object.keys(fields);
  const form = pairs(fields, fieldText);
  const object = fc.dictionary(names.length ? fc.oneof(fc.constantFrom(...names), text) : text, jsonValue, {
    maxKeys: 5,
  });
  const jsonText = fc.oneof(object, jsonValue, ...(json ? [json] : [])).map((value) => JSON.stringify(value));
  return fc.oneof(
    fc.constant(undefined),
    form.map((data) => ({ type: FORM, data })),
    jsonText.map((data) => ({ type: JSON_TYPE, data })),
    form.map((data) => ({ type: JSON_TYPE, data })),
    jsonText.map((data) => ({ type: FORM, data })),
    fc.tuple(fc.constantFrom(FORM, JSON_TYPE), fc.uint8Array({ maxLength: 64 })).map(([type, bytes]) => ({
      type,
      data: Buffer.from(bytes),
    })),
    fc.tuple(fc.constantFrom(...WRONG_TYPES), fc.oneof(form, jsonText)).map(([type, data]) => ({ type, data })),
    form.map((data) => ({ data })),
  );
}

/** What clients put in headers: the panel's languages, client apps' user agents, junk, and printable noise. */
const headerText = fc.oneof(
  fc.constantFrom(
    'en',
    'pt-BR',
    'zh-Hans',
    'xx-YY;q=abc',
    '*',
    'v2rayNG/1.9.30',
    'mihomo/1.19.0',
    'ClashMetaForAndroid/2.11.5.Meta',
    'SFA/1.11.4 (327; sing-box 1.11.4; language en_US)',
    'Shadowrocket/2070 CFNetwork/1410',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0',
    'text/html,application/xhtml+xml',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    // Long, but all eight together stay under Node's limit on headers (its 431 is the hostile-input suite's).
    'x'.repeat(1024),
  ),
  fc.string({ unit: 'binary-ascii' }).map((value) => value.replace(/[^\x20-\x7e]/g, '')),
);
const headers = fc.record(
  {
    'accept-language': headerText,
    'user-agent': headerText,
    accept: headerText,
    origin: headerText,
    cookie: headerText,
    'x-api-key': headerText,
    'x-request-id': headerText,
    'x-sandbox-signature': headerText,
  },
  { requiredKeys: [] },
);

/** Values next to a real one (an order number, a token) that must not be taken for it. */
const nearMisses = (value: string) =>
  fc
    .oneof(
      text.map((extra) => value + extra),
      text.map((extra) => extra + value),
      fc
        .nat({ max: value.length - 1 })
        .map((at) => `${value.slice(0, at)}${value[at] === '0' ? '1' : '0'}${value.slice(at + 1)}`),
      fc.constantFrom(value.slice(0, -1), value.toUpperCase(), value.toLowerCase(), `${value}\u0000`, ` ${value} `),
    )
    .filter((candidate) => candidate !== value);

// ---------------------------------------------------------------------------------------------------------------
// Requests to each route

type Probe = { method: string; path: string; headers: Record<string, string>; body?: Body };

type Inputs = {
  /** Values of the path's placeholders (`*` is any path below). */
  params?: Values;
  query?: Values;
  fields?: Values;
  /** Pairs every query starts with: a node's own credentials, in the signed-in run. */
  fixedQuery?: string;
  /** JSON of the shape the call takes, beside the random kinds. */
  json?: fc.Arbitrary<unknown>;
};

const methodOf = (route: RouteKey) => route.slice(0, route.indexOf(' '));
const templateOf = (route: RouteKey) => route.slice(route.indexOf(' ') + 1);

const segment = (values: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 4, arbitrary: values.map(encode) }, { weight: 1, arbitrary: fc.constantFrom(...BROKEN_SEGMENTS) });

/** Random requests to a route: its path with random placeholders, a random query, headers and body. */
function requests(route: RouteKey, inputs: Inputs = {}): fc.Arbitrary<Probe> {
  const method = methodOf(route);
  const template = templateOf(route);
  const placeholders = template.match(/:\w+|\*/g) ?? [];
  const filled = placeholders.map((placeholder) =>
    placeholder === '*'
      ? fc.array(segment(text), { maxLength: 4 }).map((parts) => parts.join('/'))
      : segment(inputs.params?.[placeholder.slice(1)] ?? text),
  );
  // A call that reads its query always gets one; the others, now and then.
  const random = pairs(inputs.query ?? {}, text);
  const query = inputs.query ? random : fc.option(random, { freq: 3 });
  // A GET may carry a body too, though none should read it.
  const body = bodies(inputs.fields ?? {}, inputs.json);
  return fc
    .record({
      values: fc.tuple(...filled),
      query,
      headers,
      body: method === 'GET' ? fc.option(body, { freq: 4 }).map((each) => each ?? undefined) : body,
    })
    .map(({ values, query: random, headers: sent, body: payload }) => {
      let index = 0;
      const path = template.replace(/:\w+|\*/g, () => values[index++] ?? '');
      const fullQuery = [inputs.fixedQuery, random].filter((part) => part !== undefined && part !== null).join('&');
      return {
        method,
        path: random === null && !fullQuery ? path : `${path}?${fullQuery}`,
        headers: sent,
        ...(payload ? { body: payload } : {}),
      };
    });
}

/**
 * The sharpest values, each put into every input of a call at once (placeholders, query, form fields): random runs
 * meet any one value at any one input only now and then, and these reach every input on every run.
 */
const EVERYWHERE = [
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'a\u0000b',
  'x\udfffy',
  '𝕏😀\u202e',
  '../../etc/passwd',
];

function sameEverywhere(route: RouteKey, inputs: Inputs, value: string): Probe {
  const method = methodOf(route);
  const pairsOf = (values: Values | undefined) =>
    Object.keys(values ?? {}).map((name) => `${encode(name)}=${encode(value)}`);
  const query = [...(inputs.fixedQuery ? [inputs.fixedQuery] : []), ...pairsOf(inputs.query)].join('&');
  const path = templateOf(route).replace(/:\w+|\*/g, encode(value));
  return {
    method,
    path: query ? `${path}?${query}` : path,
    headers: {},
    ...(method === 'GET' ? {} : { body: { type: FORM, data: pairsOf(inputs.fields).join('&') } }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// What counts as an answer

/** What a run knows: the owner's session and things, and whether this run sends them. */
type Context = {
  url: string;
  signedIn: boolean;
  owner: { id: number; email: string; token: string; link: string; orderNo: string };
  /** A second account: the calls that change its session or link by design act on it, never on the owner's. */
  scratch: { id: number; email: string; token: string };
  subToken: string;
  node: { id: number; protocol: string; token: string };
  pkgIds: number[];
};

type Success = { why: string; accepts(answer: CallResult, probe: Probe, context: Context): boolean };

const isEnvelope = (answer: CallResult) =>
  /^application\/json/.test(answer.headers.get('content-type') ?? '') &&
  typeof answer.body?.code === 'number' &&
  typeof answer.body?.msg === 'string';
const succeeded = (answer: CallResult) => answer.status === 200 && isEnvelope(answer) && answer.body.code === 0;

const REDIRECT: Success = {
  why: 'a fixed redirect to the panel, which reads no input',
  accepts: (answer) => answer.status === 302 && answer.headers.get('location') === '/person/',
};
const PANEL_PAGE: Success = {
  why: "the panel's page, whatever the path below it: the browser's router reads the path",
  accepts: (answer) => answer.status === 200 && answer.text === INDEX_HTML,
};
const CONSOLE_PAGE: Success = {
  why: "the console's page, whatever the path below it, told where it lives: the browser's router reads the path",
  accepts: (answer) => answer.status === 200 && answer.text === consolePage(CONSOLE_HTML, '/admin'),
};
const CHECKOUT_PAGE: Success = {
  why: 'the hosted checkout page: its script reads the order number from the path and asks the API',
  accepts: (answer) => answer.status === 200 && answer.text === CHECKOUT_HTML,
};
const SIGNED_IN_READ: Success = {
  why: "reads the signed-in customer's own data (or the catalogue, the nodes, the notice) and takes no input",
  accepts: (answer, _probe, { signedIn }) => signedIn && succeeded(answer),
};

/**
 * The effect a call has by design on whoever calls it: sent with one of the scratch account's sessions, and left
 * out of the comparison of the database.
 */
type Effect = {
  session(context: Context): Promise<string>;
  ignore(snapshot: DatabaseSnapshot, context: Context): DatabaseSnapshot;
};

type RouteSpec = {
  /** What the call reads (its placeholders, query, fields), drawn at random: no inputs means random ones only. */
  inputs?(context: Context): Inputs;
  /** The answers that succeed, and why: anything else must be a refusal. */
  succeeds?: Success;
  /** A refusal that is not an error envelope, and why. */
  refusesAs?: Success;
  effect?: Effect;
};

/** An order number near the owner's waiting order: looked up, never found, and never the order itself. */
const orderNo = ({ owner }: Context) => fc.oneof(text, nearMisses(owner.orderNo));

/** The node's own id, type and token in the signed-in run; in the other, near misses of them. */
function nodeInputs({ signedIn, node }: Context, json?: fc.Arbitrary<unknown>): Inputs {
  const report = json ? { json } : {};
  if (signedIn) return { fixedQuery: `node_id=${node.id}&node_type=${node.protocol}&token=${node.token}`, ...report };
  return {
    query: {
      node_id: fc.oneof(text, fc.constant(String(node.id))),
      node_type: fc.oneof(text, fc.constant(node.protocol)),
      token: fc.oneof(text, nearMisses(node.token)),
    },
    ...report,
  };
}
const userIds = fc.oneof(fc.nat().map(String), text);
const NODE_READ: Success = {
  why: "a node's own configuration, user list or online counts, to the node's own credentials",
  accepts: (answer, _probe, { signedIn }) => signedIn && answer.status === 200 && typeof answer.body === 'object',
};
const NODE_REPORT: Success = {
  why: "a well-formed report with the node's own credentials is taken; no account here has a package, so it counts nothing",
  accepts: (answer, _probe, { signedIn }) => signedIn && answer.status === 200 && answer.body?.data === true,
};

const withoutSessionsOf = (snapshot: DatabaseSnapshot, userId: number) => ({
  ...snapshot,
  sessions: (snapshot.sessions ?? []).filter((row) => row.user_id !== userId),
});
const withoutLinkOf = (snapshot: DatabaseSnapshot, userId: number) => ({
  ...snapshot,
  users: (snapshot.users ?? []).map((row) =>
    row.id === userId ? { ...row, uuid: null, sub_nonce: null, sub_token_hash: null } : row,
  ),
});

/**
 * Every route the app serves, with what it reads and the answers that may succeed; every other answer must be a
 * refusal. A route that the app registers and this table does not name fails the suite, so that none escapes.
 */
/** A console field in the three languages, and a package's price in one currency. */
const LOCALIZED = fc.record({ en: text, 'pt-BR': text, 'zh-Hans': text });
const PRICE = fc.record({ currency: text, price: fc.integer(), real: fc.integer() });

const ROUTES: Record<RouteKey, RouteSpec> = {
  'GET /': { succeeds: REDIRECT },
  'GET /person': { succeeds: REDIRECT },
  'GET /person/': { succeeds: PANEL_PAGE },
  'GET /person/*': { succeeds: PANEL_PAGE },
  'GET /person/index.html': { succeeds: PANEL_PAGE },
  'GET /person/checkout.html': { succeeds: CHECKOUT_PAGE },
  'GET /shopDetails/*': { succeeds: CHECKOUT_PAGE },
  // A hashed asset that is not there is a 404, never the panel's page served as a script.
  'GET /person/assets/*': {},
  'GET /person/config.json': {
    succeeds: {
      why: "the panel's runtime configuration, the same for everyone",
      accepts: (answer) => answer.status === 200 && typeof answer.body?.version === 'string',
    },
  },
  'GET /healthz': {
    succeeds: {
      why: 'the health check, which reads no input',
      accepts: (answer) => answer.status === 200 && answer.body?.status === 'ok',
    },
  },
  'GET /metrics': {
    succeeds: {
      why: 'the metrics, open here as no METRICS_TOKEN is set; they read no input',
      accepts: (answer) => answer.status === 200 && answer.text.includes('# TYPE mutenet_http_requests_total counter'),
    },
  },
  'GET /mutenet/verify/code/img': {
    succeeds: {
      why: 'a fresh captcha for anyone, whatever is sent: it reads no input and writes only to the store',
      accepts: (answer) => succeeded(answer) && /^data:image\//.test(answer.body.data.imgDat),
    },
  },
  'POST /mutenet/verify/code/email': {
    inputs: () => ({
      query: { action: fc.oneof(text, fc.constantFrom('register', 'reset_password')) },
      fields: { imgId: fieldText, imgCode: fieldText, email: fieldText },
    }),
  },
  'POST /mutenet/register': {
    inputs: () => ({
      fields: { name: fieldText, email: fieldText, password: fieldText, emailCode: fieldText, inviteCode: fieldText },
    }),
  },
  'POST /mutenet/password/reset': {
    inputs: () => ({ fields: { email: fieldText, newPwd: fieldText, emailCode: fieldText } }),
  },
  'POST /mutenet/login': {
    inputs: ({ owner }) => ({
      fields: {
        email: fc.oneof(fieldText, fc.constant(owner.email)),
        password: fieldText,
        imgCode: fieldText,
        imgId: fieldText,
      },
    }),
    succeeds: {
      why: 'with a live session and no field filled in, login is the session check',
      accepts: (answer, _probe, { signedIn, owner }) =>
        signedIn && succeeded(answer) && answer.body.data.user === owner.email,
    },
  },
  'POST /mutenet/logout': {
    succeeds: {
      why: 'signs out the session it is sent with, whatever else is sent',
      accepts: (answer, _probe, { signedIn }) => signedIn && succeeded(answer),
    },
    effect: {
      // Each signed-in run ends a session of its own.
      session: ({ url, scratch }) => login(httpClient(url), scratch.email),
      ignore: (snapshot, { scratch }) => withoutSessionsOf(snapshot, scratch.id),
    },
  },
  'POST /mutenet/user/password': {
    inputs: () => ({ fields: { oldPwd: fieldText, newPwd: fc.oneof(fieldText, fc.constant('Changed456')) } }),
  },
  'GET /mutenet/packages': { succeeds: SIGNED_IN_READ },
  'GET /mutenet/payment/currencies': { succeeds: SIGNED_IN_READ },
  'GET /mutenet/user/package/stat': { succeeds: SIGNED_IN_READ },
  'GET /mutenet/user/nodes': { succeeds: SIGNED_IN_READ },
  'GET /mutenet/notice': { succeeds: SIGNED_IN_READ },
  'GET /mutenet/user/orders': {
    inputs: (context) => ({ query: { no: orderNo(context) } }),
    succeeds: {
      why: "the signed-in customer's own orders: all of them, or none for a number that is not theirs",
      accepts: (answer, _probe, { signedIn, owner }) =>
        signedIn &&
        succeeded(answer) &&
        (answer.body.data as Array<{ no: string }>).every((order) => order.no === owner.orderNo),
    },
  },
  'PUT /mutenet/user/orders/cancel': { inputs: (context) => ({ query: { no: orderNo(context) } }) },
  'GET /mutenet/user/subscribe/url': {
    succeeds: {
      why: "the signed-in customer's own link, which takes no input",
      accepts: (answer, _probe, { signedIn, owner }) => signedIn && answer.status === 200 && answer.text === owner.link,
    },
  },
  'PUT /mutenet/user/subscribe/url': {
    succeeds: {
      why: "a new link and credential for the session's account, whatever else is sent",
      accepts: (answer, _probe, { signedIn }) => signedIn && succeeded(answer),
    },
    effect: {
      session: async ({ scratch }) => scratch.token,
      ignore: (snapshot, { scratch }) => withoutLinkOf(snapshot, scratch.id),
    },
  },
  // Never a currency the catalogue prices, so that no order is placed: every check before that one is reached.
  'POST /mutenet/user/order/create': {
    inputs: ({ pkgIds }) => ({
      fields: {
        pkgId: fc.oneof(fieldText, fc.constantFrom(...pkgIds.map(String), '0', '-1', '1.5', '999999')),
        currency: fc.oneof(fieldText, fc.constantFrom('usd', 'EUR', 'CLP', 'USDX')),
        force: fc.oneof(fieldText, fc.constantFrom('0', '1', 'yes')),
      },
    }),
  },
  'GET /payment/checkout/:orderNo': { inputs: (context) => ({ params: { orderNo: orderNo(context) } }) },
  'POST /payment/checkout/:orderNo/pay': {
    inputs: (context) => ({
      params: { orderNo: orderNo(context) },
      fields: { method: fc.oneof(fieldText, fc.constant('sandbox')) },
    }),
  },
  'POST /payment/sandbox/:orderNo/:action': {
    inputs: (context) => ({
      params: { orderNo: orderNo(context), action: fc.oneof(text, fc.constantFrom('approve', 'decline', 'pending')) },
    }),
  },
  'POST /payment/notify/:gateway': {
    inputs: () => ({
      params: { gateway: fc.oneof(text, fc.constant('sandbox')) },
      fields: { event: fieldText, orderNo: fieldText, outcome: fieldText, amount: fieldText },
    }),
  },
  // The operator console's API: no probe has an operator's session (anonymous, or a customer's token), so each is
  // refused; a sign-in with random credentials fails like any other.
  'POST /admin/api/session': {
    inputs: () => ({
      fields: { email: fieldText, password: fieldText, code: fieldText },
      json: fc.record({ email: text, password: text, code: text }, { requiredKeys: [] }),
    }),
  },
  'GET /admin/api/session': {},
  'DELETE /admin/api/session': {},
  'POST /admin/api/session/password': {
    inputs: () => ({ fields: { current: fieldText, next: fieldText } }),
  },
  'POST /admin/api/session/totp': {},
  'POST /admin/api/session/totp/confirm': { inputs: () => ({ fields: { code: fieldText } }) },
  'GET /admin/api/operators': {},
  'POST /admin/api/operators': { inputs: () => ({ fields: { email: fieldText, role: fieldText } }) },
  'PUT /admin/api/operators/:id': {
    inputs: () => ({ params: { id: text }, fields: { role: fieldText, disabled: fieldText } }),
  },
  'POST /admin/api/operators/:id/reset-password': { inputs: () => ({ params: { id: text } }) },
  'GET /admin/api/audit': {
    inputs: () => ({ query: { operatorId: text, action: text, targetType: text, cursor: text, limit: text } }),
  },
  // The console's page, whatever the path under ADMIN_PATH, its hashed files (a missing one is a 404), and the console
  // calls that do not exist (404).
  'GET /admin': {
    succeeds: {
      why: 'a fixed redirect to the console',
      accepts: (answer) => answer.status === 302 && answer.headers.get('location') === '/admin/',
    },
  },
  'GET /admin/': { succeeds: CONSOLE_PAGE },
  'GET /admin/*': { succeeds: CONSOLE_PAGE },
  'GET /admin/assets/*': {},
  'GET /admin/api/*': {},
  'POST /admin/api/*': {},
  'PUT /admin/api/*': {},
  'DELETE /admin/api/*': {},
  'POST /admin/api/session/passkey/options': {},
  'POST /admin/api/session/passkey': {
    inputs: () => ({
      json: fc.record(
        {
          id: text,
          rawId: text,
          type: text,
          response: fc.record({ clientDataJSON: text, authenticatorData: text, signature: text }),
        },
        { requiredKeys: [] },
      ),
    }),
  },
  'GET /admin/api/session/passkeys': {},
  'POST /admin/api/session/passkeys/options': {},
  'POST /admin/api/session/passkeys': {
    inputs: () => ({
      json: fc.record({ name: text, response: fc.record({ id: text, rawId: text, type: text }) }, { requiredKeys: [] }),
    }),
  },
  'DELETE /admin/api/session/passkeys/:id': { inputs: () => ({ params: { id: text } }) },
  'GET /admin/api/tokens': {},
  'POST /admin/api/tokens': { inputs: () => ({ fields: { name: fieldText, role: fieldText } }) },
  'DELETE /admin/api/tokens/:id': { inputs: () => ({ params: { id: text } }) },
  'GET /admin/api/overview': {},
  'GET /admin/api/customers': { inputs: () => ({ query: { search: text, banned: text, cursor: text, limit: text } }) },
  'GET /admin/api/customers/:id': { inputs: () => ({ params: { id: text } }) },
  'POST /admin/api/customers/:id/ban': { inputs: () => ({ params: { id: text } }) },
  'POST /admin/api/customers/:id/unban': { inputs: () => ({ params: { id: text } }) },
  'POST /admin/api/customers/:id/reset-subscription': { inputs: () => ({ params: { id: text } }) },
  'POST /admin/api/customers/:id/add-days': { inputs: () => ({ params: { id: text }, fields: { days: fieldText } }) },
  'POST /admin/api/customers/:id/add-traffic': { inputs: () => ({ params: { id: text }, fields: { gb: fieldText } }) },
  'DELETE /admin/api/customers/:id/sessions/:sessionId': { inputs: () => ({ params: { id: text, sessionId: text } }) },
  'GET /admin/api/catalog/plans': {},
  'GET /admin/api/catalog/currencies': {},
  'POST /admin/api/catalog/plans': {
    inputs: () => ({
      fields: { group: fieldText, sort: fieldText },
      json: fc.record({ group: text, names: LOCALIZED, contents: LOCALIZED, sort: fc.integer() }, { requiredKeys: [] }),
    }),
  },
  'PUT /admin/api/catalog/plans/:id': {
    inputs: () => ({
      params: { id: text },
      json: fc.record({ group: text, names: LOCALIZED, contents: LOCALIZED, sort: fc.integer() }, { requiredKeys: [] }),
    }),
  },
  'PUT /admin/api/catalog/plans/:id/visible': {
    inputs: () => ({
      params: { id: text },
      fields: { visible: fieldText },
      json: fc.record({ visible: fc.oneof(fc.boolean(), text) }),
    }),
  },
  'PUT /admin/api/catalog/plan-order': {
    inputs: () => ({
      json: fc.record({ group: text, planIds: fc.array(fc.oneof(fc.integer(), text)) }, { requiredKeys: [] }),
    }),
  },
  'POST /admin/api/catalog/plans/:id/packages': {
    inputs: () => ({
      params: { id: text },
      json: fc.record(
        { label: text, days: fc.integer(), trafficBytes: fc.integer(), sort: fc.integer(), prices: fc.array(PRICE) },
        { requiredKeys: [] },
      ),
    }),
  },
  'PUT /admin/api/catalog/packages/:id': {
    inputs: () => ({
      params: { id: text },
      json: fc.record({ label: text, days: fc.integer(), prices: fc.array(PRICE) }, { requiredKeys: [] }),
    }),
  },
  'DELETE /admin/api/catalog/packages/:id': { inputs: () => ({ params: { id: text } }) },
  'PUT /admin/api/catalog/currencies/:code/enabled': {
    inputs: () => ({
      params: { code: fc.oneof(text, fc.constantFrom('USD', 'BRL', 'usd')) },
      json: fc.record({ enabled: fc.oneof(fc.boolean(), text) }, { requiredKeys: [] }),
    }),
  },
  'POST /admin/api/catalog/currencies': {
    inputs: () => ({
      fields: { code: fieldText, name: fieldText, decimals: fieldText },
      json: fc.record({ code: text, name: text, decimals: fc.integer(), sort: fc.integer() }, { requiredKeys: [] }),
    }),
  },
  'GET /admin/api/orders': {
    inputs: () => ({
      query: {
        status: text,
        currency: text,
        gateway: text,
        from: text,
        to: text,
        userId: text,
        email: text,
        cursor: text,
        limit: text,
      },
    }),
  },
  'GET /admin/api/orders/:no': { inputs: () => ({ params: { no: text } }) },
  'POST /admin/api/orders/:no/mark-paid': {
    inputs: () => ({
      params: { no: text },
      json: fc.record({ confirm: fc.oneof(fc.boolean(), text) }, { requiredKeys: [] }),
    }),
  },
  'POST /admin/api/orders/:no/refund': {
    inputs: () => ({
      params: { no: text },
      json: fc.record({ confirm: fc.oneof(fc.boolean(), text), alreadyRefunded: fc.boolean() }, { requiredKeys: [] }),
    }),
  },
  'POST /admin/api/orders/:no/chargeback': {
    inputs: () => ({
      params: { no: text },
      json: fc.record({ confirm: fc.oneof(fc.boolean(), text) }, { requiredKeys: [] }),
    }),
  },
  'GET /admin/api/nodes': {},
  'POST /admin/api/nodes': {
    inputs: () => ({
      fields: {
        names: fieldText,
        protocol: fieldText,
        host: fieldText,
        port: fieldText,
        rate: fieldText,
        labels: fieldText,
        visible: fieldText,
        sort: fieldText,
        settings: fieldText,
      },
    }),
  },
  'PUT /admin/api/nodes/:id': {
    inputs: () => ({
      params: { id: text },
      fields: { host: fieldText, port: fieldText, protocol: fieldText, settings: fieldText },
    }),
  },
  'POST /admin/api/nodes/:id/token': { inputs: () => ({ params: { id: text } }) },
  'POST /admin/api/nodes/:id/hide': { inputs: () => ({ params: { id: text } }) },
  'POST /admin/api/nodes/:id/show': { inputs: () => ({ params: { id: text } }) },
  'DELETE /admin/api/nodes/:id': { inputs: () => ({ params: { id: text } }) },
  'GET /admin/api/notice': {},
  'PUT /admin/api/notice': { inputs: () => ({ fields: { en: fieldText, 'pt-BR': fieldText, 'zh-Hans': fieldText } }) },
  'DELETE /admin/api/notice': {},
  'GET /sub/:token': {
    inputs: ({ signedIn, subToken }) => ({
      params: { token: fc.oneof(text, nearMisses(subToken), ...(signedIn ? [fc.constant(subToken)] : [])) },
      query: { flag: fc.oneof(text, fc.constantFrom('clash', 'meta', 'sing-box', 'v2rayng', 'shadowrocket')) },
    }),
    succeeds: {
      why: "the owner's own link answers the feed, in whatever format the flag and the client ask for",
      accepts: (answer, probe, { signedIn, subToken }) =>
        signedIn && answer.status === 200 && probe.path.split('?')[0] === `/sub/${subToken}`,
    },
    refusesAs: {
      why: 'client apps read the feed as text: an unknown link is a plain 404 that says nothing about why',
      accepts: (answer) => answer.status === 404 && answer.text === 'Not found',
    },
  },
  [`GET ${NODE_API}/config`]: { inputs: (context) => nodeInputs(context), succeeds: NODE_READ },
  [`GET ${NODE_API}/user`]: { inputs: (context) => nodeInputs(context), succeeds: NODE_READ },
  [`GET ${NODE_API}/alivelist`]: { inputs: (context) => nodeInputs(context), succeeds: NODE_READ },
  [`POST ${NODE_API}/push`]: {
    inputs: (context) =>
      nodeInputs(context, fc.dictionary(userIds, fc.tuple(fc.integer(), fc.integer()), { maxKeys: 4 })),
    succeeds: NODE_REPORT,
  },
  [`POST ${NODE_API}/alive`]: {
    inputs: (context) => nodeInputs(context, fc.dictionary(userIds, fc.array(text, { maxLength: 3 }), { maxKeys: 4 })),
    succeeds: NODE_REPORT,
  },
};

/**
 * A refusal: a 200 envelope with a code other than 0, or a 4xx envelope whose code is its status; either way with a
 * message of the contract's, never the text of an exception.
 */
function expectRefusal(answer: CallResult, where: string) {
  expect([200, 400, 401, 403, 404, 405, 413, 415, 429], where).toContain(answer.status);
  expect(isEnvelope(answer), where).toBe(true);
  expect(answer.body.code, where).not.toBe(0);
  if (answer.status !== 200) expect(answer.body.code, where).toBe(answer.status);
  expect(answer.body.msg, where).not.toBe('');
  expect(KNOWN_MESSAGES.has(answer.body.msg), where).toBe(true);
}

const errorLines = (lines: string[]) => lines.filter((line) => /"level":(50|60)/.test(line));

describe.each(DATABASES)('every route under random and hostile input on %s', (database) => {
  let app: TestApp;
  let removeDist: () => Promise<void>;
  const contexts = {} as Record<'anonymous' | 'signed in', Context>;

  beforeAll(async () => {
    const dist = await writeWebDist();
    removeDist = dist.remove;
    app = await startTestApp({ database, env: dist.env });
    const catalog = await seedCatalog(app);
    const [node] = await addNodes(app);
    const account = async (email: string) => {
      const token = await signUp(app, httpClient(app.url), email);
      const { id } = await app.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      return { id, email, token };
    };
    const owner = await account(`owner.${database}@example.com`);
    const scratch = await account(`scratch.${database}@example.com`);
    const api = httpClient(app.url);
    const placed = await api.post('/mutenet/user/order/create', {
      form: { pkgId: String(catalog.traffic30), currency: 'USD' },
      token: owner.token,
    });
    // The link is made on first read: read once here, so that the runs find it made.
    const link = (await api.get('/mutenet/user/subscribe/url', { token: owner.token })).text;
    await api.get('/mutenet/user/subscribe/url', { token: scratch.token });
    const shared = {
      url: app.url,
      owner: { ...owner, link, orderNo: placed.body.data.orderNo as string },
      scratch,
      subToken: link.slice(link.lastIndexOf('/') + 1),
      node: { id: node!.id, protocol: node!.protocol, token: node!.token },
      pkgIds: Object.values(catalog),
    };
    contexts.anonymous = { signedIn: false, ...shared };
    contexts['signed in'] = { signedIn: true, ...shared };
  });
  afterAll(async () => {
    await app?.close();
    await removeDist?.();
  });

  it('has requests for every route the app serves, and for no route it does not', () => {
    const routes = registeredRoutes(app);
    expect(routes.filter((route) => !Object.hasOwn(ROUTES, route))).toEqual([]);
    expect(Object.keys(ROUTES).filter((route) => !routes.includes(route as RouteKey))).toEqual([]);
  });

  async function send(probe: Probe, token: string | undefined) {
    const sent = { ...probe.headers };
    if (probe.body?.type !== undefined) sent['content-type'] = probe.body.type;
    if (token) sent.authorization = token;
    return rawRequest(app.url, { method: probe.method, path: probe.path, headers: sent, body: probe.body?.data });
  }

  it('answers a path the router cannot read with the error envelope, in the request language', async () => {
    // A malformed percent escape, and a path parameter over the router's length limit: refused before any hook runs.
    for (const path of ['/sub/%zz', '/mutenet/lo%E0%A4gin', `/payment/checkout/${'1'.repeat(200)}`]) {
      const answer = await send({ method: 'GET', path, headers: { 'accept-language': 'en' } }, undefined);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toEqual({ code: 400, msg: MESSAGES.BAD_REQUEST.en, data: null });
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-request-id')).toMatch(/\S/);
      expect(answer.headers.get('strict-transport-security')).toBeNull();
      // Behind the trusted proxy over HTTPS, as every other answer: the browser is told to keep to HTTPS.
      const overHttps = await send({ method: 'GET', path, headers: { 'x-forwarded-proto': 'https' } }, undefined);
      expect(overHttps.status, path).toBe(400);
      expect(overHttps.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    }
  });

  it('resolves dot segments before routing, as a browser does: a path answers as the path it resolves to', async () => {
    const templates = registeredRoutes(app)
      .filter((route) => methodOf(route) === 'GET')
      .map((route) =>
        templateOf(route)
          .replace(/:\w+|\*/g, 'x')
          .split('/'),
      );
    const dotted = fc.array(fc.constantFrom(...DOT_SEGMENTS, 'etc', 'passwd'), { minLength: 1, maxLength: 4 });
    const paths = fc
      .tuple(fc.constantFrom(...templates), fc.array(fc.tuple(fc.nat(), dotted), { minLength: 1, maxLength: 3 }))
      .map(([template, insertions]) => {
        const segments = [...template];
        for (const [at, inserted] of insertions) segments.splice(1 + (at % segments.length), 0, ...inserted);
        return segments.join('/');
      });
    const get = (path: string) => send({ method: 'GET', path, headers: {} }, undefined);
    const before = await snapshotDatabase(app);
    await fc.assert(
      fc.asyncProperty(paths, async (path) => {
        // Appended to the origin, not resolved against it: a path starting `//` would name another host.
        const resolved = new URL(`${app.url}${path}`).pathname;
        const [answer, expected] = [await get(path), await get(resolved)];
        expect(answer.status, `${path} → ${answer.status}, ${resolved} → ${expected.status}`).toBe(expected.status);
        expect(answer.status, path).toBeLessThan(500);
      }),
      { numRuns: RUNS[database] * 2 },
    );
    expect(await snapshotDatabase(app)).toEqual(before);
  });

  describe.each(['anonymous', 'signed in'] as const)('%s', (mode) => {
    // The table's routes, which the first test holds to the app's own list.
    it.each(Object.keys(ROUTES) as RouteKey[])(
      '%s never fails, never leaks, and changes nothing it should not',
      async (route) => {
        const context = contexts[mode];
        const spec = ROUTES[route]!;
        const ignore = (snapshot: DatabaseSnapshot) =>
          spec.effect && context.signedIn ? spec.effect.ignore(snapshot, context) : snapshot;
        const before = ignore(await snapshotDatabase(app));
        const logsBefore = app.logs.length;

        const inputs = spec.inputs?.(context) ?? {};
        await fc.assert(
          fc.asyncProperty(requests(route, inputs), async (probe) => {
            const token = context.signedIn ? await (spec.effect?.session(context) ?? context.owner.token) : undefined;
            const answer = await send(probe, token);
            const allowed = spec.succeeds ? ` (it may succeed only as ${spec.succeeds.why})` : '';
            const where = `${probe.method} ${probe.path.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}${allowed}`;
            expect(answer.status, where).toBeLessThan(500);
            expect(answer.text, where).not.toMatch(STACK_TRACE);
            const expected = [spec.succeeds, spec.refusesAs].some((rule) => rule?.accepts(answer, probe, context));
            if (!expected) expectRefusal(answer, where);
          }),
          { numRuns: RUNS[database], examples: EVERYWHERE.map((value) => [sameEverywhere(route, inputs, value)]) },
        );

        expect(ignore(await snapshotDatabase(app))).toEqual(before);
        expect(errorLines(app.logs.slice(logsBefore))).toEqual([]);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        // The owner is still signed in: the next route's signed-in run reaches past the session check.
        const check = await httpClient(app.url).post('/mutenet/login', { token: context.owner.token });
        expect(check.body.code).toBe(0);
      },
    );
  });
});
