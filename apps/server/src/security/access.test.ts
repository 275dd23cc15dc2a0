import { randomBytes } from 'node:crypto';
import {
  ADMIN_PENDING_SIGN_IN_COOKIE,
  ADMIN_SESSION_COOKIE,
  type AdminPermission,
  MESSAGES,
  type OPERATOR_ROLES,
  roleMay,
} from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, PASSWORD, signUp } from '../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../test/catalog.js';
import type { AnyConsoleArea, ConsoleCall } from '../test/console-access/area.js';
import { CONSOLE_AREAS } from '../test/console-access/index.js';
import { type Row, snapshotDatabase } from '../test/db-snapshot.js';
import { type CallOptions, type CallResult, httpClient } from '../test/http-client.js';
import { type Console, operatorSession } from '../test/operators.js';
import { type RouteKey, registeredRoutes } from '../test/routes.js';
import { addNodes, agent, type Customer, customerWithPackage } from '../test/subscription.js';
import { DATABASES, startTestApp, type TestApp } from '../test/test-app.js';
import { writeWebDist } from '../test/web-dist.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** How long a session lives (decisions: revocable session tokens; the server keeps them 30 days). */
const SESSION_DAYS = 30;
const NEW_PASSWORD = 'Changed456';
const NODE_API = '/api/v1/server/UniProxy';

/** What a session call is about: the victim's own order, password and a package of another plan. */
type Victim = { password: string; orderNo: string; pkgId: number };
type Call = { path: string; form?: Record<string, string> };

/**
 * How each route the app serves is reached. `session`: a customer call that needs a live session, written as the call
 * that would change or show the victim's things if it got through. `open`: why the route needs no session. `node`: the
 * node API, which takes a node's own credentials instead, and what a node sends to it.
 */
type SessionAccess = {
  kind: 'session';
  call: (victim: Victim) => Call;
  /** The hosted checkout also takes the session token as the `token` cookie the panel sets. */
  cookie?: true;
  /** Without a token, this call is something else (a login attempt), answered on its fields. */
  withTokenOnly?: true;
};
/** An operator console call, on the targets its area makes (`console-access/`). */
type OperatorAccess = {
  kind: 'operator';
  permission: AdminPermission | null;
  area: AnyConsoleArea;
  call: (targets: never) => ConsoleCall;
};
type Access =
  | SessionAccess
  | OperatorAccess
  | { kind: 'open'; why: string }
  /**
   * The passkey half of an operator's sign-in: taken only with the pending sign-in cookie that a right password
   * gave (same-origin, limited per address and per account as the sign-in is).
   */
  | { kind: 'pending' }
  | { kind: 'node'; report?: (userId: number) => unknown };

const session = (call: (victim: Victim) => Call, extra: { cookie?: true; withTokenOnly?: true } = {}): Access => ({
  kind: 'session',
  call,
  ...extra,
});
const open = (why: string): Access => ({ kind: 'open', why });
const consoleRoutes = (): Record<RouteKey, Access> =>
  Object.fromEntries(
    CONSOLE_AREAS.flatMap((area) =>
      Object.entries(area.routes).map(([route, { permission, call }]) => [
        route,
        { kind: 'operator', permission, area, call },
      ]),
    ),
  );
const ADMIN = '/admin/api';
const CONSOLE_APP = open("the console's own files: its screens ask for an operator's session");
const NO_SUCH_CALL = open('a console call that does not exist: 404, whoever asks');
const WEB_APP = open("the web app's own files: the browser code decides which screens need a token");

const ACCESS: Record<RouteKey, Access> = {
  'GET /': WEB_APP,
  'GET /person': WEB_APP,
  'GET /person/': WEB_APP,
  'GET /person/*': WEB_APP,
  'GET /person/assets/*': WEB_APP,
  'GET /person/checkout.html': WEB_APP,
  'GET /person/config.json': WEB_APP,
  'GET /person/index.html': WEB_APP,
  'GET /shopDetails/*': WEB_APP,
  'GET /healthz': open("the load balancer's health check"),
  'GET /metrics': open('Prometheus scrapes it, with METRICS_TOKEN when the operator sets one'),
  'GET /sub/:token': open('the subscription token in the path is the credential (see the ownership tests)'),
  'POST /payment/notify/:gateway': open('a gateway proves itself by its signature over the body'),
  'GET /mutenet/verify/code/img': open('visitors register, log in and reset a password'),
  'POST /mutenet/verify/code/email': open('visitors register and reset a password'),
  'POST /mutenet/register': open('visitors register'),
  'POST /mutenet/password/reset': open('visitors reset a forgotten password'),
  'POST /mutenet/login': session(() => ({ path: '/mutenet/login', form: {} }), { withTokenOnly: true }),
  'POST /mutenet/logout': session(() => ({ path: '/mutenet/logout' })),
  'POST /mutenet/user/password': session((victim) => ({
    path: '/mutenet/user/password',
    form: { oldPwd: victim.password, newPwd: NEW_PASSWORD },
  })),
  'GET /mutenet/packages': session(() => ({ path: '/mutenet/packages' })),
  'GET /mutenet/payment/currencies': session(() => ({ path: '/mutenet/payment/currencies' })),
  'GET /mutenet/user/package/stat': session(() => ({ path: '/mutenet/user/package/stat' })),
  'GET /mutenet/user/nodes': session(() => ({ path: '/mutenet/user/nodes' })),
  'GET /mutenet/notice': session(() => ({ path: '/mutenet/notice' })),
  'GET /mutenet/user/subscribe/url': session(() => ({ path: '/mutenet/user/subscribe/url' })),
  'PUT /mutenet/user/subscribe/url': session(() => ({ path: '/mutenet/user/subscribe/url' })),
  'POST /mutenet/user/order/create': session((victim) => ({
    path: '/mutenet/user/order/create',
    form: { pkgId: String(victim.pkgId), currency: 'USD', force: '1' },
  })),
  'GET /mutenet/user/orders': session((victim) => ({ path: `/mutenet/user/orders?no=${victim.orderNo}` })),
  'PUT /mutenet/user/orders/cancel': session((victim) => ({
    path: `/mutenet/user/orders/cancel?no=${victim.orderNo}`,
  })),
  'GET /payment/checkout/:orderNo': session((victim) => ({ path: `/payment/checkout/${victim.orderNo}` }), {
    cookie: true,
  }),
  'POST /payment/checkout/:orderNo/pay': session(
    (victim) => ({ path: `/payment/checkout/${victim.orderNo}/pay`, form: { method: 'sandbox' } }),
    { cookie: true },
  ),
  'POST /payment/sandbox/:orderNo/:action': session(
    (victim) => ({ path: `/payment/sandbox/${victim.orderNo}/approve` }),
    { cookie: true },
  ),
  'GET /admin': CONSOLE_APP,
  'GET /admin/': CONSOLE_APP,
  'GET /admin/*': CONSOLE_APP,
  'GET /admin/assets/*': CONSOLE_APP,
  [`GET ${ADMIN}/*`]: NO_SUCH_CALL,
  [`POST ${ADMIN}/*`]: NO_SUCH_CALL,
  [`PUT ${ADMIN}/*`]: NO_SUCH_CALL,
  [`DELETE ${ADMIN}/*`]: NO_SUCH_CALL,
  [`POST ${ADMIN}/session`]: open('operators sign in: limited per address and per account, and same-origin only'),
  [`POST ${ADMIN}/session/passkey/options`]: { kind: 'pending' },
  [`POST ${ADMIN}/session/passkey`]: { kind: 'pending' },
  ...consoleRoutes(),
  [`GET ${NODE_API}/config`]: { kind: 'node' },
  [`GET ${NODE_API}/user`]: { kind: 'node' },
  [`GET ${NODE_API}/alivelist`]: { kind: 'node' },
  [`POST ${NODE_API}/push`]: { kind: 'node', report: (userId) => ({ [userId]: [5_000_000, 7_000_000] }) },
  [`POST ${NODE_API}/alive`]: { kind: 'node', report: (userId) => ({ [userId]: ['203.0.113.9'] }) },
};

const entries = <K extends Access['kind']>(kind: K) =>
  Object.entries(ACCESS).filter((entry): entry is [RouteKey, Extract<Access, { kind: K }>] => entry[1].kind === kind);

const methodOf = (route: RouteKey) => route.slice(0, route.indexOf(' '));
/** A path of the route with its placeholders filled in. */
const pathOf = (route: RouteKey) =>
  route
    .slice(route.indexOf(' ') + 1)
    .replace(/:\w+/g, 'x')
    .replace('*', 'x');

const UNAUTHORIZED = { code: 401, msg: MESSAGES.UNAUTHORIZED.en, data: null };
const FORBIDDEN = { code: 403, msg: MESSAGES.FORBIDDEN.en, data: null };

/** A passkey's answer of the right shape that no authenticator made. */
const forgedAssertion = () => {
  const id = forgedToken();
  const response = { clientDataJSON: forgedToken(), authenticatorData: forgedToken(), signature: forgedToken() };
  return { id, rawId: id, type: 'public-key', response, clientExtensionResults: {} };
};

/** A token shaped like the real ones (256 random bits, URL-safe) that the server never issued. */
const forgedToken = () => randomBytes(32).toString('base64url');

describe.each(DATABASES)('sessions on %s', (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let removeDist: () => Promise<void>;
  let seq = 0;
  const client = () => httpClient(app.url, { language: 'en' });

  beforeAll(async () => {
    const dist = await writeWebDist();
    removeDist = dist.remove;
    app = await startTestApp({ database, env: dist.env });
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
    await removeDist?.();
  });

  const sessionCheck = (token: string) => client().post('/mutenet/login', { token });

  /** A waiting order, placed with a live session; one stays waiting only for the length of a test. */
  async function placeOrder(token: string) {
    const { body } = await client().post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.traffic30), currency: 'USD' },
      token,
    });
    expect(body.code).toBe(0);
    return body.data.orderNo as string;
  }

  /** Closes the customer's waiting orders, so that a later move of the clock times none of them out mid-test. */
  async function closeWaitingOrders(token: string) {
    const { body } = await client().get('/mutenet/user/orders', { token });
    for (const order of body.data.filter((each: { status: string }) => each.status === 'waiting')) {
      expect((await client().put(`/mutenet/user/orders/cancel?no=${order.no}`, { token })).body.code).toBe(0);
    }
  }

  /** A session call as the victim's, with these headers carrying (or not) a token. */
  function sendAs(route: RouteKey, access: SessionAccess, victim: Victim, headers: Record<string, string>) {
    const call = access.call(victim);
    return client().call(methodOf(route), call.path, { headers, ...(call.form ? { form: call.form } : {}) });
  }

  async function expectAllRefused(tokens: Array<string | undefined>, victim: Victim) {
    for (const [route, access] of entries('session')) {
      for (const token of tokens) {
        if (token === undefined && access.withTokenOnly) continue;
        const ways: Array<[string, Record<string, string>]> = [
          ['in Authorization', token === undefined ? {} : { authorization: token }],
        ];
        if (access.cookie && token)
          ways.push(['as the cookie', { cookie: `token=${token}`, origin: new URL(app.config.publicUrl).origin }]);
        for (const [how, headers] of ways) {
          const response = await sendAs(route, access, victim, headers);
          expect(response.status, `${route} ${how}: ${response.text}`).toBe(401);
          expect(response.body, `${route} ${how}`).toEqual(UNAUTHORIZED);
        }
      }
    }
  }

  async function newVictim() {
    const email = `victim${++seq}.${database}@example.com`;
    return { email, token: await signUp(app, client(), email) };
  }

  it('has an access entry for every route the app serves, and none for a route it does not', () => {
    const routes = registeredRoutes(app);
    expect(routes.filter((route) => !Object.hasOwn(ACCESS, route))).toEqual([]);
    expect(Object.keys(ACCESS).filter((route) => !routes.includes(route as RouteKey))).toEqual([]);
  });

  it('answers the open routes without a session', async () => {
    for (const [route] of entries('open')) {
      const response = await client().call(methodOf(route), pathOf(route));
      expect(response.status, route).not.toBe(401);
      expect(response.status, route).toBeLessThan(500);
    }
  });

  const DEAD_SESSIONS: Array<{
    name: string;
    /** Turns the victim's live session into the tokens to try, and says which password now signs in. */
    kill(victim: { email: string; token: string }): Promise<{ dead: Array<string | undefined>; password?: string }>;
  }> = [
    { name: 'no token', kill: async () => ({ dead: [undefined] }) },
    {
      name: 'a forged token',
      async kill({ token }) {
        const stored = await app.app.db.selectFrom('sessions').select('token_hash').execute();
        const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
        const dead = [forgedToken(), `Bearer ${forgedToken()}`, flipped, token.toUpperCase(), `${token}x`];
        // A leaked row of the sessions table is not a token.
        return { dead: [...dead, ...stored.map((row) => row.token_hash)] };
      },
    },
    {
      name: `a token past its ${SESSION_DAYS} days`,
      async kill({ token }) {
        app.clock.advance(SESSION_DAYS * DAY - MINUTE);
        expect((await sessionCheck(token)).body.code).toBe(0);
        app.clock.advance(2 * MINUTE);
        return { dead: [token] };
      },
    },
    {
      name: 'a token signed out',
      async kill({ token }) {
        expect((await client().post('/mutenet/logout', { token })).body.code).toBe(0);
        return { dead: [token] };
      },
    },
    {
      name: 'the tokens of every device after a password change',
      async kill({ email, token }) {
        const otherDevice = await login(client(), email);
        const changed = await client().post('/mutenet/user/password', {
          form: { oldPwd: PASSWORD, newPwd: NEW_PASSWORD },
          token,
        });
        expect(changed.body.code).toBe(0);
        return { dead: [token, otherDevice], password: NEW_PASSWORD };
      },
    },
  ];

  it.each(DEAD_SESSIONS)('refuses every session call with $name: 401, and changes nothing', async ({ kill }) => {
    const { email, token } = await newVictim();
    const { dead, password = PASSWORD } = await kill({ email, token });
    // A live session opened afterwards: the victim's order is real and waiting while the dead tokens knock.
    const live = await login(client(), email, password);
    const victim = { password, orderNo: await placeOrder(live), pkgId: seeded.monthly };

    const before = await snapshotDatabase(app);
    await expectAllRefused(dead, victim);
    expect(await snapshotDatabase(app)).toEqual(before);

    expect((await sessionCheck(live)).body.code).toBe(0);
    await closeWaitingOrders(live);
  });

  it('lets each of those calls through with a live session, so that the 401s come from the token alone', async () => {
    const { email } = await newVictim();
    const victim = {
      password: PASSWORD,
      orderNo: await placeOrder(await login(client(), email)),
      pkgId: seeded.monthly,
    };
    for (const [route, access] of entries('session')) {
      // Each call gets a session of its own, as signing out and changing the password end theirs.
      const token = await login(client(), email, victim.password);
      const response = await sendAs(route, access, victim, { authorization: token });
      expect(response.status, `${route}: ${response.text}`).toBe(200);
      if (route === 'POST /mutenet/user/password') victim.password = NEW_PASSWORD;
    }
    await closeWaitingOrders(await login(client(), email, victim.password));
  });
});

describe.each(DATABASES)("another customer's orders, packages and link on %s", (database) => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let nodes: Awaited<ReturnType<typeof addNodes>>;
  let owner: Customer;
  let stranger: Customer;
  let ownerOrder: string;

  /** Every row that belongs to the customer: the account and whatever names it. */
  async function rowsOf(customer: Customer) {
    const snapshot = await snapshotDatabase(app);
    return Object.fromEntries(
      Object.entries(snapshot).map(([table, rows]) => [
        table,
        rows.filter((row: Row) => (table === 'users' ? row.id : row.user_id) === customer.id),
      ]),
    );
  }

  const linkOf = async (customer: Customer) =>
    (await customer.api.get('/mutenet/user/subscribe/url', { token: customer.token })).text;
  /** The feed of a link as share links, decoded: one line per node with the customer's credential in it. */
  const feedOf = (path: string) => httpClient(app.url).get(path, { headers: { 'user-agent': 'v2rayNG/1.9.30' } });
  const uuidOf = async (customer: Customer) =>
    (await app.app.db.selectFrom('users').select('uuid').where('id', '=', customer.id).executeTakeFirstOrThrow()).uuid;

  beforeAll(async () => {
    app = await startTestApp({ database });
    seeded = await seedCatalog(app);
    nodes = await addNodes(app);
    owner = await customerWithPackage(app, `owner.${database}@example.com`, seeded.traffic30);
    stranger = await customerWithPackage(app, `stranger.${database}@example.com`, null);
    const { body } = await owner.api.post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.monthly), currency: 'USD', force: '1' },
      token: owner.token,
    });
    expect(body.code).toBe(0);
    ownerOrder = body.data.orderNo;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("finds none of the owner's orders for another customer, by any call, and changes nothing", async () => {
    const { api, token } = stranger;
    const notFound = { code: 2003, msg: MESSAGES.ORDER_NOT_FOUND.en, data: null };
    const before = await snapshotDatabase(app);

    // One order is looked up as the list holding it: another customer's is not in theirs.
    const listed = await api.get(`/mutenet/user/orders?no=${ownerOrder}`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ code: 0, data: [] });
    const refusals: CallResult[] = [
      await api.put(`/mutenet/user/orders/cancel?no=${ownerOrder}`, { token }),
      await api.get(`/payment/checkout/${ownerOrder}`, { token }),
      await api.get(`/payment/checkout/${ownerOrder}`, { headers: { cookie: `token=${token}` } }),
      await api.post(`/payment/checkout/${ownerOrder}/pay`, { form: { method: 'sandbox' }, token }),
      ...(await Promise.all(
        ['approve', 'decline', 'pending'].map((action) =>
          api.post(`/payment/sandbox/${ownerOrder}/${action}`, { token }),
        ),
      )),
    ];
    for (const response of refusals) {
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual(notFound);
    }

    expect(await snapshotDatabase(app)).toEqual(before);
    const own = await owner.api.get(`/mutenet/user/orders?no=${ownerOrder}`, { token: owner.token });
    expect(own.body.data).toMatchObject([{ no: ownerOrder, status: 'waiting' }]);
  });

  it("answers another customer's orders on their own account alone: no code 3 or 4 from the owner's", async () => {
    const ownerRows = await rowsOf(owner);
    const create = (pkgId: number) =>
      stranger.api.post('/mutenet/user/order/create', {
        form: { pkgId: String(pkgId), currency: 'USD' },
        token: stranger.token,
      });

    // The owner has a running package and a waiting order for this plan; the stranger has neither.
    const first = await create(seeded.monthly);
    expect(first.body).toMatchObject({ code: 0 });
    expect(first.body.data.orderNo).not.toBe(ownerOrder);
    const again = await create(seeded.monthly);
    expect(again.body).toMatchObject({ code: 3, data: [{ no: first.body.data.orderNo }] });
    expect((await create(seeded.traffic30)).body.code).toBe(0);

    // No call takes the id of a customer's package: each sees only their own.
    const stat = (customer: Customer) => customer.api.get('/mutenet/user/package/stat', { token: customer.token });
    expect((await stat(stranger)).body).toMatchObject({ code: 0, data: [] });
    expect((await stat(owner)).body.data).toHaveLength(1);
    expect(await rowsOf(owner)).toEqual(ownerRows);
  });

  it("serves each link its own customer's feed, and another's reset leaves the owner's link as it was", async () => {
    const ownerLink = new URL(await linkOf(owner)).pathname;
    const strangerLink = new URL(await linkOf(stranger)).pathname;
    const ownerUuid = await uuidOf(owner);
    const decoded = async (path: string) => {
      const response = await feedOf(path);
      expect(response.status, path).toBe(200);
      return Buffer.from(response.text, 'base64').toString();
    };
    expect(await decoded(ownerLink)).toContain(ownerUuid);
    expect(await decoded(strangerLink)).not.toContain(ownerUuid);

    const token = ownerLink.slice('/sub/'.length);
    const nearMisses = [
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      token.toUpperCase(),
      token.slice(0, -1),
      `${token}A`,
      `${token}%00`,
      strangerLink.slice('/sub/'.length).slice(0, 20) + token.slice(20),
    ];
    for (const guess of nearMisses) {
      const response = await feedOf(`/sub/${guess}`);
      expect(response.status, guess).toBe(404);
      expect(response.text).not.toContain(ownerUuid);
    }

    const ownerRows = await rowsOf(owner);
    const reset = await stranger.api.put('/mutenet/user/subscribe/url', { token: stranger.token });
    expect(reset.body.code).toBe(0);
    expect(await rowsOf(owner)).toEqual(ownerRows);
    expect(await decoded(ownerLink)).toContain(ownerUuid);
    expect((await feedOf(strangerLink)).status).toBe(404);
  });

  it("refuses every node API call without the node's own id, type and token: 403, and counts nothing", async () => {
    const [node, other] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const own = `node_id=${node.id}&node_type=${node.protocol}`;
    const refused: Array<[string, string, Record<string, string>]> = [
      ['no token', own, {}],
      ['a wrong token', `${own}&token=${forgedToken()}`, {}],
      ["another node's token", `${own}&token=${other.token}`, {}],
      ["another node's token as X-API-Key", own, { 'x-api-key': other.token }],
      ['a node that does not exist', `node_id=999999&node_type=${node.protocol}&token=${node.token}`, {}],
      ['a node id that is not a number', `node_id=${node.id}x&node_type=${node.protocol}&token=${node.token}`, {}],
      ["another node's type", `node_id=${node.id}&node_type=${other.protocol}&token=${node.token}`, {}],
      ['no node id', `node_type=${node.protocol}&token=${node.token}`, {}],
    ];
    const nodeRoutes = entries('node');
    expect(nodeRoutes.map(([route]) => route).sort()).toEqual(
      registeredRoutes(app).filter((route) => route.includes(`${NODE_API}/`)),
    );
    const before = await snapshotDatabase(app);

    for (const [route, { report }] of nodeRoutes) {
      const path = route.slice(route.indexOf(' ') + 1);
      for (const [label, query, headers] of refused) {
        const options: CallOptions = { headers, ...(report ? { json: report(owner.id) } : {}) };
        const response = await httpClient(app.url, { language: 'en' }).call(
          methodOf(route),
          `${path}?${query}`,
          options,
        );
        expect(response.status, `${route} with ${label}`).toBe(403);
        expect(response.body, `${route} with ${label}`).toEqual(FORBIDDEN);
      }
    }

    expect(await snapshotDatabase(app)).toEqual(before);
    const nodeAgent = agent(app, node);
    expect(Object.keys((await nodeAgent.aliveList()).body.alive)).not.toContain(String(owner.id));
    // The same reports with the node's own credentials count: the refusals above were of the credentials alone.
    const used = async () =>
      (
        await app.app.db
          .selectFrom('user_packages')
          .select('traffic_used')
          .where('user_id', '=', owner.id)
          .executeTakeFirstOrThrow()
      ).traffic_used;
    const usedBefore = await used();
    expect((await nodeAgent.push({ [owner.id]: [5_000_000, 7_000_000] })).status).toBe(200);
    expect(await used()).toBe(usedBefore + 12_000_000 * node.rate);
    expect((await nodeAgent.alive({ [owner.id]: ['203.0.113.9'] })).status).toBe(200);
    expect((await nodeAgent.aliveList()).body.alive).toMatchObject({ [owner.id]: 1 });
  });
});

describe.each(DATABASES)("the operator console's routes on %s", (database) => {
  let app: TestApp;
  let customerToken: string;
  let seq = 0;
  const operatorRoutes = () => entries('operator');
  const newOperator = (role: (typeof OPERATOR_ROLES)[number]) =>
    operatorSession(app, `${role}${++seq}.${database}@example.com`, role);
  /**
   * The things a round of calls acts on, made by each area before the round, so that a round's changes (an operator
   * promoted, a node removed) leave the next round's targets alone.
   */
  const newRound = async () => {
    const made = new Map<AnyConsoleArea, unknown>();
    for (const area of CONSOLE_AREAS) made.set(area, await area.targets(app, `${database}.${++seq}`));
    return (access: OperatorAccess): ConsoleCall => access.call(made.get(access.area) as never);
  };
  type Round = Awaited<ReturnType<typeof newRound>>;
  /** Sends the route's call with these headers only (no session the console client may hold). */
  const bare = async (access: OperatorAccess, round: Round, headers: Record<string, string>) => {
    const { method, path, json } = round(access);
    return httpClient(app.url, { language: 'en' }).call(method, `/admin${path}`, {
      headers,
      ...(json !== undefined ? { json } : {}),
    });
  };
  const send = async (client: Console, access: OperatorAccess, round: Round, headers: Record<string, string> = {}) => {
    const { method, path, json } = round(access);
    return client.call(method, path, json, headers);
  };

  beforeAll(async () => {
    app = await startTestApp({ database });
    customerToken = await signUp(app, httpClient(app.url), `customer.${database}@example.com`);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses every console call without an operator’s session, a customer’s included: 401, nothing changed', async () => {
    const round = await newRound();
    const origin = new URL(app.config.publicUrl).origin;
    const before = await snapshotDatabase(app);
    for (const [route, access] of operatorRoutes()) {
      const ways: Record<string, string>[] = [
        {},
        { cookie: `${ADMIN_SESSION_COOKIE}=${forgedToken()}`, origin },
        { authorization: `Bearer ${forgedToken()}` },
        { authorization: customerToken },
        { authorization: `Bearer ${customerToken}` },
        { cookie: `${ADMIN_SESSION_COOKIE}=${customerToken}`, origin },
      ];
      for (const headers of ways) {
        const answer = await bare(access, round, headers);
        expect(answer.status, `${route} ${JSON.stringify(headers)}: ${answer.text}`).toBe(401);
        expect(answer.body, route).toEqual(UNAUTHORIZED);
      }
    }
    expect(await snapshotDatabase(app)).toEqual(before);
  });

  it('lets each role through where its role may, and answers 403 elsewhere, changing nothing', async () => {
    // Support first and the owner last: the owner's calls change the operator they act on.
    for (const role of ['support', 'manager', 'owner'] as const) {
      const signedIn = await newOperator(role);
      const round = await newRound();
      for (const [route, access] of operatorRoutes()) {
        // The session's own calls (sign out, password, authenticator) are each role's; the operators suite has them.
        if (access.permission === null) continue;
        const before = await snapshotDatabase(app);
        const answer = await send(signedIn.client, access, round);
        if (roleMay(role, access.permission)) {
          expect(answer.status, `${role} ${route}: ${answer.text}`).toBe(200);
          expect(answer.body.code, `${role} ${route}`).toBe(0);
        } else {
          expect(answer.status, `${role} ${route}: ${answer.text}`).toBe(403);
          expect(answer.body.code, `${role} ${route}`).toBe(FORBIDDEN.code);
          expect(await snapshotDatabase(app)).toEqual(before);
        }
      }
    }
  });

  it('refuses a change sent with an owner’s cookie from another site (CSRF): 403, nothing changed', async () => {
    const owner = await newOperator('owner');
    const round = await newRound();
    const before = await snapshotDatabase(app);
    for (const [route, access] of operatorRoutes()) {
      if (methodOf(route) === 'GET') continue;
      for (const origin of ['https://evil.example', 'null']) {
        const answer = await send(owner.client, access, round, { origin });
        expect(answer.status, `${route} from ${origin}: ${answer.text}`).toBe(403);
      }
    }
    expect(await snapshotDatabase(app)).toEqual(before);
    // The same session from the console's own origin still works.
    expect((await owner.client.get('/api/operators')).body.code).toBe(0);
  });

  it('refuses the passkey half of a sign-in without the pending cookie a right password gives: 401', async () => {
    const origin = new URL(app.config.publicUrl).origin;
    const before = await snapshotDatabase(app);
    for (const [route] of entries('pending')) {
      const ways: Record<string, string>[] = [
        { origin },
        { origin, cookie: `${ADMIN_PENDING_SIGN_IN_COOKIE}=${forgedToken()}` },
        { origin, cookie: `${ADMIN_SESSION_COOKIE}=${forgedToken()}` },
        { origin, authorization: customerToken },
      ];
      for (const headers of ways) {
        const answer = await httpClient(app.url, { language: 'en' }).call(
          methodOf(route),
          route.slice(route.indexOf(' ') + 1),
          {
            headers,
            json: route.endsWith('/options') ? {} : forgedAssertion(),
          },
        );
        expect(answer.status, `${route} ${JSON.stringify(headers)}: ${answer.text}`).toBe(401);
      }
    }
    expect(await snapshotDatabase(app)).toEqual(before);
  });

  it('refuses a signed-out and an idle operator session on every console call: 401', async () => {
    const round = await newRound();
    const signedOut = await newOperator('owner');
    const idle = await newOperator('owner');
    const cookies = { signedOut: signedOut.client.cookie, idle: idle.client.cookie };
    expect((await signedOut.client.delete('/api/session')).body.code).toBe(0);
    // Thirty minutes without a call end a session (the operators suite holds the exact bound).
    app.clock.advance(31 * MINUTE);
    const origin = new URL(app.config.publicUrl).origin;
    for (const [route, access] of operatorRoutes()) {
      for (const [name, cookie] of Object.entries(cookies)) {
        const answer = await bare(access, round, { cookie: `${ADMIN_SESSION_COOKIE}=${cookie}`, origin });
        expect(answer.status, `${route} with the ${name} session: ${answer.text}`).toBe(401);
      }
    }
  });
});
