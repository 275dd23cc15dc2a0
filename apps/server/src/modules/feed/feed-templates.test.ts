import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NODE_SPECS } from '../../test/node-specs.js';
import type { NamedNode } from '../nodes/nodes.service.js';
import { NETWORKS, PROTOCOLS, type Protocol, SS_CIPHERS, TLS_MODES } from '../nodes/proxy.model.js';
import {
  type CustomerFeed,
  FEED_FORMAT_NAMES,
  type FeedFormat,
  type FeedInput,
  type RenderedFeed,
  type SingBoxVersion,
} from './feed-format.js';
import { cutTemplate, FeedTemplates, feedInput, type TemplatedFeed, templateBody } from './feed-templates.js';
import { renderClash } from './formats/clash.js';
import { renderShareLinks } from './formats/share-links.js';
import { renderSingBox } from './formats/sing-box.js';
import { FEED_FORMATS } from './registry.js';

type NodeSettings = NamedNode['node']['settings'];

/** The renderers themselves, the one source of every format's bytes. */
const FULL_RENDER: Record<FeedFormat, (input: FeedInput, version?: SingBoxVersion) => RenderedFeed> = {
  'share-links': renderShareLinks,
  clash: renderClash,
  'sing-box': renderSingBox,
};

/**
 * A body's bytes as sent (UTF-8) in a latin1 string, one character a byte: equal strings are equal bytes, and the
 * property tests compare thousands of bodies, which deep equality walked byte by byte as Buffers (20 of the first
 * test's 25 s).
 */
const latin1 = (body: string | Buffer) =>
  (typeof body === 'string' ? Buffer.from(body, 'utf8') : body).toString('latin1');

/** A render's body (`latin1`) and its type, or the error it throws: both paths must do the same. */
function outcome(render: () => RenderedFeed | TemplatedFeed) {
  try {
    const rendered = render();
    const body = typeof rendered.body === 'function' ? rendered.body() : rendered.body;
    return { body: latin1(body), contentType: rendered.contentType };
  } catch (error) {
    return { threw: String(error) };
  }
}

/**
 * The body gzipped from its template's kept parts, held to the body and its length: undefined if it has none that
 * fit. Gzipped first, then made, then gzipped again: each is made anew, whatever the other left behind.
 */
function gzippedFromParts(rendered: TemplatedFeed): Buffer | undefined {
  const gzipped = rendered.gzipped();
  const body = rendered.body();
  expect(body.length).toBe(rendered.length);
  if (gzipped) {
    expect(gunzipSync(gzipped).equals(body)).toBe(true);
    expect(rendered.gzipped()!.equals(gzipped)).toBe(true);
  }
  return gzipped;
}

/** Text that formats must escape, percent-encode or number: quotes, line breaks, controls, `#&%/`, emoji, CJK. */
const awkward = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', ' ', '#1 & 2', '100%', 'a/b?c=d', '"q"', '\\', 'x\ny', '\u2028', '\u0085', '\u007f', '🇩🇪 节点'),
  fc.constantFrom('DIRECT', 'Auto', 'Proxy', 'dns-out', 'a, b', 'true', '0123'),
);
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const base64Key = fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('base64'));

const settings: fc.Arbitrary<NodeSettings> = fc
  .record({
    network: fc.constantFrom(...NETWORKS),
    path: optional(fc.oneof(awkward, fc.constantFrom('/ws?ed=2048', '/x?a=1&ed=0', '/up?ed=4096&b=2', '/'))),
    hostHeader: optional(awkward),
    serviceName: optional(awkward),
    tls: fc.constantFrom(...TLS_MODES),
    sni: optional(awkward),
    fingerprint: optional(fc.constantFrom('chrome', 'firefox', 'safari', '')),
    allowInsecure: optional(fc.boolean()),
    flow: optional(fc.constantFrom('xtls-rprx-vision', '')),
    realityPublicKey: optional(fc.oneof(base64Key, awkward)),
    realityShortId: optional(fc.oneof(fc.stringMatching(/^[0-9a-f]{0,16}$/), awkward)),
    cipher: fc.constantFrom(...SS_CIPHERS),
    serverKey: optional(fc.oneof(base64Key, awkward)),
    obfsPassword: optional(awkward),
    congestionControl: optional(fc.constantFrom('bbr', 'cubic', 'new_reno') as fc.Arbitrary<'bbr'>),
  })
  .map((drawn) => Object.fromEntries(Object.entries(drawn).filter(([, value]) => value !== undefined)) as NodeSettings);

const host = fc.oneof(
  fc.domain(),
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV6().map((ip) => `[${ip}]`),
  awkward,
);

/** Nodes as `NodesService.named` lists them; a name may hold the customer's own UUID, which must stay as it is. */
const nodeList = fc.array(
  fc.record({
    protocol: fc.constantFrom(...PROTOCOLS),
    host,
    port: fc.integer({ min: 1, max: 65535 }),
    settings,
    name: awkward,
    nameHoldsUuid: fc.boolean(),
  }),
  { maxLength: 8 },
);
type DrawnNode = {
  protocol: Protocol;
  host: string;
  port: number;
  settings: NodeSettings;
  name: string;
  nameHoldsUuid: boolean;
};

function named(drawn: DrawnNode[], uuid: string): NamedNode[] {
  return drawn.map(({ protocol, host, port, settings, name, nameHoldsUuid }, index) => ({
    node: { id: index + 1, names: '{}', labels: '', rate: 1, protocol, host, port, settings, visible: 1, sort: index },
    name: nameHoldsUuid ? `${name} ${uuid}` : name,
  }));
}

/** The form the app issues, and forms it does not (which must take the full render). */
const uuid = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  fc.uuid().map((id) => id.toUpperCase()),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', 'a"b\\c', 'x#y&z%', '00000000-0000-0000-0000-00000000000\n', '🇩🇪'),
);

const version = optional(fc.record({ major: fc.integer({ min: 0, max: 2 }), minor: fc.integer({ min: 0, max: 20 }) }));

const usage = fc.record({
  upload: fc.nat(),
  download: fc.nat(),
  total: fc.nat(),
  expire: fc.nat(),
});

describe('FeedTemplates', () => {
  it('answers every format, variant and customer with the full renderers’ bytes, across node lists, and gzips them', () => {
    let gzipped = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(nodeList, fc.array(fc.tuple(uuid, version, usage), { minLength: 1, maxLength: 4 })), {
          minLength: 1,
          maxLength: 2,
        }),
        awkward,
        fc.uuid(),
        (lists, title, listUuid) => {
          const templates = new FeedTemplates();
          for (const [drawn, requests] of lists) {
            // One array per node list, as `NodesService.named` gives it: the key the templates are kept by.
            const nodes = named(drawn, listUuid);
            for (const [customerUuid, singBoxVersion, customerUsage] of requests) {
              const feed: CustomerFeed = { nodes, uuid: customerUuid, usage: customerUsage, title };
              for (const format of FEED_FORMAT_NAMES) {
                const expected = outcome(() => FULL_RENDER[format](feedInput(feed), singBoxVersion));
                expect(outcome(() => templates.render(feed, format, { singBoxVersion }))).toEqual(expected);
                if ('threw' in expected) continue;
                if (gzippedFromParts(templates.render(feed, format, { singBoxVersion }))) gzipped++;
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(gzipped).toBeGreaterThan(500);
  });

  it('gives a customer whose UUID is in a node’s name that name unchanged', () => {
    const uuid = randomUUID();
    const named = (name: string, protocol: 'vless' | 'shadowsocks'): NamedNode => ({
      node: {
        id: 1,
        names: '{}',
        labels: '',
        rate: 1,
        protocol,
        host: 'a.example.com',
        port: 443,
        settings: {
          network: 'tcp',
          tls: 'none',
          cipher: '2022-blake3-aes-128-gcm',
          serverKey: 'QbbGmxYNhD0BQLaq7bC4xw==',
        },
        visible: 1,
        sort: 0,
      },
      name,
    });
    const feed: CustomerFeed = {
      nodes: [named(`node ${uuid}`, 'vless'), named(uuid, 'shadowsocks')],
      uuid,
      usage: { upload: 0, download: 0, total: 0, expire: 0 },
      title: uuid,
    };
    const templates = new FeedTemplates();
    for (const format of FEED_FORMAT_NAMES) {
      expect(outcome(() => templates.render(feed, format, {}))).toEqual(
        outcome(() => FULL_RENDER[format](feedInput(feed))),
      );
      gzippedFromParts(templates.render(feed, format, {}));
    }
  });

  it('gzips the feed of every issued UUID from kept parts, to under twice what deflating it whole gives', () => {
    const nodes: NamedNode[] = Array.from({ length: 50 }, (_, index) => {
      const spec = NODE_SPECS[index % NODE_SPECS.length]!;
      const { protocol, port, settings } = spec;
      const node = {
        id: index + 1,
        names: '{}',
        labels: '',
        rate: 1,
        protocol,
        host: `node${index}.example.com`,
        port,
      };
      return { node: { ...node, settings, visible: 1, sort: index }, name: `${spec.name} ${index + 1}` };
    });
    const templates = new FeedTemplates();
    const usage = { upload: 0, download: 0, total: 0, expire: 0 };
    for (const format of FEED_FORMAT_NAMES) {
      for (let customer = 0; customer < 200; customer++) {
        const rendered = templates.render({ nodes, uuid: randomUUID(), usage, title: 'Mutenet' }, format, {});
        const gzipped = gzippedFromParts(rendered);
        expect(gzipped).toBeDefined();
        expect(gzipped!.length).toBeLessThan(2 * gzipSync(rendered.body()).length);
      }
    }
    // A UUID not in the issued form is rendered whole, and has no kept parts to be gzipped from.
    const upperCase = randomUUID().toUpperCase();
    const rendered = templates.render({ nodes, uuid: upperCase, usage, title: 'Mutenet' }, 'clash', {});
    expect(rendered.gzipped()).toBeUndefined();
  });
});

describe('cutTemplate', () => {
  /** The nodes the tests and the benchmark use, one of each protocol, a Shadowsocks 2022 one with its server key. */
  const nodes: NamedNode[] = NODE_SPECS.map((spec, index) => ({
    node: {
      id: index + 1,
      names: '{}',
      labels: '',
      rate: 1,
      protocol: spec.protocol,
      host: `node${index + 1}.example.com`,
      port: spec.port,
      settings: spec.settings.cipher?.startsWith('2022-')
        ? { ...spec.settings, serverKey: 'QbbGmxYNhD0BQLaq7bC4xw==' }
        : spec.settings,
      visible: 1,
      sort: index,
    },
    name: spec.name,
  }));
  const legacySs: NamedNode = {
    ...nodes[3]!,
    node: { ...nodes[3]!.node, id: 99, settings: { network: 'tcp', tls: 'none', cipher: 'aes-256-gcm' } },
  };

  it('fills Clash and sing-box profiles in, every version: nothing of them is rendered per request', () => {
    const contexts = [{}, ...[9, 10, 11, 12].map((minor) => ({ singBoxVersion: { major: 1, minor } }))];
    for (const format of ['clash', 'sing-box'] as const) {
      for (const context of contexts) {
        const template = cutTemplate([...nodes, legacySs], 'Mutenet', FEED_FORMATS[format], context);
        expect(template.parts).toHaveLength(1);
        expect(typeof template.parts[0]).toBe('object');
      }
    }
  });

  it('fills every share link in, vmess and legacy Shadowsocks ones inside their base64', () => {
    const template = cutTemplate([...nodes, legacySs], 'Mutenet', FEED_FORMATS['share-links'], {});
    expect(template.parts.every((part) => typeof part === 'object')).toBe(true);
    const inBase64 = [...nodes, legacySs]
      .filter((_, index) => 'inner' in (template.parts[index] as object))
      .map(({ node }) => `${node.protocol} ${node.settings.cipher ?? ''}`.trim());
    expect(inBase64).toEqual(['vmess', 'shadowsocks aes-256-gcm']);
  });

  it('lays every format out as bytes, and writes a customer’s credentials in to the full render’s bytes', () => {
    const usage = { upload: 0, download: 0, total: 0, expire: 0 };
    for (const format of FEED_FORMAT_NAMES) {
      const template = cutTemplate([...nodes, legacySs], 'Mutenet', FEED_FORMATS[format], {});
      expect(template.layout).toBeDefined();
      for (let customer = 0; customer < 20; customer++) {
        const feed: CustomerFeed = { nodes: [...nodes, legacySs], uuid: randomUUID(), usage, title: 'Mutenet' };
        expect(latin1(templateBody(template, feed))).toEqual(outcome(() => FULL_RENDER[format](feedInput(feed))).body);
      }
    }
  });

  it('joins the text of a customer whose credentials do not fit the layout’s places, to the full render’s bytes', () => {
    const usage = { upload: 0, download: 0, total: 0, expire: 0 };
    for (const format of FEED_FORMAT_NAMES) {
      const template = cutTemplate(nodes, 'Mutenet', FEED_FORMATS[format], {});
      // One character longer than an issued UUID: every place after the first credential would move.
      const feed: CustomerFeed = { nodes, uuid: `${randomUUID()}0`, usage, title: 'Mutenet' };
      expect(latin1(templateBody(template, feed))).toEqual(outcome(() => FULL_RENDER[format](feedInput(feed))).body);
    }
  });

  it('keeps no layout where a part is rendered on each request', () => {
    // A Shadowsocks 2022 server key with a quote: JSON escapes it, so the password is in no form that is cut.
    const quotedKey: NamedNode = {
      ...nodes[3]!,
      node: { ...nodes[3]!.node, settings: { ...nodes[3]!.node.settings, serverKey: 'a"b' } },
    };
    const template = cutTemplate([nodes[0]!, quotedKey], 'Mutenet', FEED_FORMATS['sing-box'], {});
    expect(template.parts.map((part) => typeof part)).toEqual(['function']);
    expect(template.layout).toBeUndefined();
    const feed: CustomerFeed = {
      nodes: [nodes[0]!, quotedKey],
      uuid: randomUUID(),
      usage: { upload: 0, download: 0, total: 0, expire: 0 },
      title: 'Mutenet',
    };
    expect(latin1(templateBody(template, feed))).toEqual(outcome(() => renderSingBox(feedInput(feed))).body);
  });
});
