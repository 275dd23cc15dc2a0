/**
 * Feed bodies kept as templates. Customers differ only by their credential, so per loaded node list (and so per
 * language), format and variant, the body is rendered once with a stand-in UUID and cut where the stand-in's
 * credentials are written; a request joins the pieces with its customer's own.
 *
 * The renderers stay the only source of each format: a template is cut from their output, and kept only when its
 * pieces joined with a second stand-in's credentials give that stand-in's own render byte for byte. A credential is
 * looked for as it is, percent-encoded, and inside base64 (a vmess link is base64 of JSON, a legacy ss link base64url of
 * `method:password`), which is then encoded again on each request. What still fails the check is rendered on each
 * request: the node's part where the format has one per node, else the whole body. So is every feed of a UUID not in
 * the form the app issues, which the renderers might escape otherwise.
 *
 * Where every part is cut, the body is also laid out as bytes: the stand-in's, with the places each request writes its
 * own credentials over (every credential of an issued UUID has the stand-in's length), so that a request copies the
 * body and writes a few short texts instead of joining a text and encoding it to UTF-8.
 *
 * A template also keeps its body's gzip in parts (`GzipTemplate`), for the clients that take gzip (every client app
 * does): a request then copies the parts around its credentials instead of deflating the whole body. A laid-out body's
 * holes are its places, and which of them repeat an earlier one follows from the layout; another body's are learnt
 * from its renders for several stand-ins, and each body is checked against them.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { GzipTemplate } from '../../lib/gzip-template.js';
import { type NamedNode, passwordOn, resolveProxy } from '../nodes/nodes.service.js';
import {
  type CustomerFeed,
  type FeedFormat,
  type FeedInput,
  type FeedRenderContext,
  joinParts,
  type PartsJoin,
} from './feed-format.js';
import { FEED_FORMATS, type FeedRenderer } from './registry.js';

/** The UUIDs the app issues (`randomUUID`): lower-case hex, which every format writes as it is. */
const ISSUED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How a format may write a credential: as it is, or percent-encoded (a share link's userinfo). */
const WRITTEN_AS: Array<(text: string) => string> = [(text) => text, encodeURIComponent];

/** Text cut where credentials go: `pieces[i]`, then credential `holes[i]`, …, then the last piece. */
type Cut = { pieces: string[]; holes: number[] };
/** Text whose credentials are written inside a base64 run: `before`, the cut text encoded, `after`. */
type Encoded = { before: string; inner: Cut; encoding: Base64; after: string };
type Base64 = (typeof BASE64)[number];

const BASE64 = ['base64', 'base64url'] as const;
/** A character of either base64 alphabet; padding follows a run. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

export type Template = {
  /** What each hole holds, worked out from the customer's UUID. */
  credentials: Array<(uuid: string) => string>;
  /** Each part of the body: cut, or rendered on each request. */
  parts: Array<Cut | Encoded | ((feed: CustomerFeed) => string)>;
  join: PartsJoin;
  /** The body as bytes before the join's encoding, when every part is cut and it checked out. */
  layout?: Layout | undefined;
  /**
   * The body's gzip in parts, once a client has asked for it (of laid-out bodies where there is a layout); null when
   * the bodies have no such template.
   */
  gzip?: GzipTemplate | null;
};

/**
 * The joined parts as bytes for the first stand-in, before the join's encoding; each place a request writes over
 * (a credential, or a base64 run holding credentials); and each credential's length in bytes, which a request's must
 * have for the places to hold. Where the text is read only at once, to be encoded (share links' base64) or gzipped, a
 * request writes it in `scratch`, a copy kept for that, instead of a copy of its own; and an encoded text that is
 * only gzipped, in `encodedScratch`.
 */
type Layout = { text: Buffer; writes: Write[]; lengths: number[]; scratch?: Buffer; encodedScratch?: Buffer };
type Write = { at: number; credential: number } | { at: number; length: number; run: LaidOutRun };
/**
 * A base64 run of a layout: its text as bytes for the first stand-in, and where its credentials go in them. A request
 * writes its credentials over these bytes and encodes them: a layout's runs are only used one request at a time.
 */
type LaidOutRun = { encoding: Base64; decoded: Buffer; places: Array<{ at: number; credential: number }> };

/**
 * A feed rendered for its customer: its body's length, the body as bytes, and the body gzipped from kept parts, each
 * made when asked for. An answer takes one of the two: a laid-out body that is only gzipped is written in the layout's
 * scratch copy, read at once by the gzip, rather than in a copy of its own.
 */
export type TemplatedFeed = {
  contentType: string;
  length: number;
  body(): Buffer;
  /** The body gzipped from kept parts, or undefined when it has none that fit (then it is compressed as usual). */
  gzipped(): Buffer | undefined;
};

const NO_GZIP = () => undefined;

/**
 * The stand-ins whose bodies teach a gzip template where bodies vary: for each hex digit, a UUID of that digit
 * throughout (so that every place any bit of a credential reaches differs among them), and two drawn at random.
 */
const GZIP_STAND_INS = [...'0123456789abcdef'].map(
  (digit, index) =>
    `${digit.repeat(8)}-${digit.repeat(4)}-4${digit.repeat(3)}-${'89ab'[index % 4]}${digit.repeat(3)}-${digit.repeat(12)}`,
);
const GZIP_RANDOM_STAND_INS = 2;

export class FeedTemplates {
  /** Per node list (they go with it), per format and variant. */
  #byList = new WeakMap<readonly NamedNode[], Map<string, Template>>();

  render(feed: CustomerFeed, format: FeedFormat, context: FeedRenderContext): TemplatedFeed {
    const renderer = FEED_FORMATS[format];
    if (!ISSUED_UUID.test(feed.uuid)) {
      const { body, contentType } = renderer.render(feedInput(feed), context);
      return madeFeed(Buffer.from(body, 'utf8'), contentType, NO_GZIP);
    }
    return templatedFeed(this.#template(feed, format, renderer, context), feed);
  }

  #template(feed: CustomerFeed, format: FeedFormat, renderer: FeedRenderer, context: FeedRenderContext): Template {
    let templates = this.#byList.get(feed.nodes);
    if (!templates) {
      templates = new Map();
      this.#byList.set(feed.nodes, templates);
    }
    // The title is part of the key: it is one per service, but the template must not outlive a change of it.
    const key = `${format}\n${renderer.variant(context)}\n${feed.title}`;
    let template = templates.get(key);
    if (!template) {
      template = cutTemplate(feed.nodes, feed.title, renderer, context);
      templates.set(key, template);
    }
    return template;
  }
}

/** A feed whose body is made at once. */
const madeFeed = (body: Buffer, contentType: string, gzip: (body: Buffer) => Buffer | undefined): TemplatedFeed => ({
  contentType,
  length: body.length,
  body: () => body,
  gzipped: () => gzip(body),
});

/** A template's feed for a customer: laid out where it can be, else joined as text. */
function templatedFeed(template: Template, feed: CustomerFeed): TemplatedFeed {
  const { layout, join } = template;
  const values = template.credentials.map((credential) => credential(feed.uuid));
  const bytes = layout && layoutBytes(layout, values);
  const gzip = (body: Buffer) => gzipTemplateOf(template, feed)?.gzip(body);
  // A layout's gzip template is of laid-out bodies only.
  if (!bytes) return madeFeed(joinedBody(template, feed, values), join.contentType, layout ? NO_GZIP : gzip);
  return {
    contentType: join.contentType,
    length: join.encoding ? base64Length(layout.text.length) : layout.text.length,
    body: () => laidOutBody(layout, join, bytes),
    gzipped: () => gzip(laidOutBody(layout, join, bytes, true)),
  };
}

/** The body of a template for a customer, as bytes, made anew. */
export function templateBody(template: Template, feed: CustomerFeed): Buffer {
  return templatedFeed(template, feed).body();
}

/** The credentials as bytes, or undefined if one of them has another length than its places in the layout. */
function layoutBytes({ lengths }: Layout, values: string[]): Buffer[] | undefined {
  const bytes = values.map((value) => Buffer.from(value, 'utf8'));
  return bytes.every((credential, index) => credential.length === lengths[index]) ? bytes : undefined;
}

/** The layout's copy of its text kept for requests to write in and read at once. */
const scratchOf = (layout: Layout) => (layout.scratch ??= Buffer.from(layout.text));

/** The length of a text of `bytes` in base64, padded. */
const base64Length = (bytes: number) => 4 * Math.ceil(bytes / 3);

/** The body written in a layout: in the layout's scratch copies when `readAtOnce`, else in bytes of its own. */
function laidOutBody(layout: Layout, { encoding }: PartsJoin, bytes: Buffer[], readAtOnce = false): Buffer {
  if (!encoding) return writeLayout(layout, bytes, readAtOnce ? scratchOf(layout) : undefined);
  const encoded = writeLayout(layout, bytes, scratchOf(layout)).toString(encoding);
  if (!readAtOnce) return Buffer.from(encoded, 'latin1');
  layout.encodedScratch ??= Buffer.alloc(encoded.length);
  layout.encodedScratch.write(encoded, 'latin1');
  return layout.encodedScratch;
}

function joinedBody(template: Template, feed: CustomerFeed, values: string[]): Buffer {
  const parts = template.parts.map((part) => (typeof part === 'function' ? part(feed) : write(part, values)));
  return Buffer.from(joinParts(template.join, parts).body, 'utf8');
}

/**
 * The laid-out text with these credentials written in: in `into`, a copy of the text that only its places differ from,
 * if given (every place is written again).
 */
function writeLayout({ text, writes }: Layout, bytes: Buffer[], into?: Buffer): Buffer {
  const body = into ?? Buffer.from(text);
  for (const place of writes) {
    if ('credential' in place) {
      body.set(bytes[place.credential]!, place.at);
      continue;
    }
    const { encoding, decoded, places } = place.run;
    for (const inner of places) decoded.set(bytes[inner.credential]!, inner.at);
    // A base64 run's length follows from its text's, which the credentials' lengths fix.
    body.write(decoded.toString(encoding), place.at, place.length, 'latin1');
  }
  return body;
}

/**
 * The template's gzip in parts, the first time it is asked for: of its layout's places, if it has one; else learnt
 * from its bodies for the stand-ins.
 */
function gzipTemplateOf(template: Template, feed: CustomerFeed): GzipTemplate | undefined {
  if (template.gzip === undefined) {
    const standIns = [...GZIP_STAND_INS, ...Array.from({ length: GZIP_RANDOM_STAND_INS }, () => randomUUID())];
    const bodies = standIns.map((uuid) => templateBody(template, { ...feed, uuid }));
    const { layout } = template;
    const gzip = layout
      ? GzipTemplate.ofHoles(bodies[0]!, gzipHolesOf(layout, template.join))
      : GzipTemplate.of(bodies);
    // A layout's gzip is held to its bodies once: a request's is then not looked at. A body it does not gzip fails
    // the check rather than throwing on the request that made the template.
    const holds = (body: Buffer) => {
      const gzipped = gzip?.gzip(body);
      return gzipped !== undefined && gunzipSync(gzipped).equals(body);
    };
    template.gzip = gzip && (!layout || bodies.every(holds)) ? gzip : null;
  }
  return template.gzip ?? undefined;
}

/**
 * The holes of a laid-out body's gzip: where the body varies between customers (`varyingPlaces`), as it lies in the
 * body (under a base64 join, the characters its bytes reach), places whose holes meet taken as one; and for each the
 * last earlier hole that holds the same bytes for every customer: the same text around the same credentials at the
 * same offsets.
 */
function gzipHolesOf(layout: Layout, join: PartsJoin): Array<{ start: number; end: number; sameAs?: number }> {
  const grouped = join.encoding === 'base64';
  const textLength = layout.text.length;
  type Hole = { start: number; end: number; textStart: number; textEnd: number; places: string[]; once: boolean };
  const holes: Hole[] = [];
  for (const place of varyingPlaces(layout)) {
    const start = grouped ? base64Start(place.start) : place.start;
    const end = grouped ? base64End(place.end) : place.end;
    const last = holes.at(-1);
    const joined = last && start <= last.end ? last : undefined;
    const hole = joined ?? {
      start,
      end,
      textStart: grouped ? (start / 4) * 3 : start,
      textEnd: 0,
      places: [],
      once: false,
    };
    hole.end = end;
    hole.textEnd = grouped ? Math.min(textLength, (end / 4) * 3) : end;
    hole.places.push(`${place.start - hole.textStart}:${place.credential ?? 'own'}`);
    hole.once ||= place.credential === undefined;
    if (!joined) holes.push(hole);
  }
  const lastWith = new Map<string, number>();
  return holes.map(({ start, end, textStart, textEnd, places, once }, index) => {
    const key = `${places.join(',')}\n${layout.text.toString('latin1', textStart, textEnd)}`;
    const sameAs = once ? undefined : lastWith.get(key);
    if (!once) lastWith.set(key, index);
    return sameAs === undefined ? { start, end } : { start, end, sameAs };
  });
}

/**
 * Where a laid-out text varies between customers, in order: each credential's bytes, and in a base64 run the
 * characters its credentials' bytes reach, which hold the node's own text too (so no other place holds the same).
 */
function varyingPlaces({ writes, lengths }: Layout): Array<{ start: number; end: number; credential?: number }> {
  const places: Array<{ start: number; end: number; credential?: number }> = [];
  for (const place of writes) {
    if ('credential' in place) {
      places.push({ start: place.at, end: place.at + lengths[place.credential]!, credential: place.credential });
      continue;
    }
    for (const { at, credential } of place.run.places) {
      const end = at + lengths[credential]!;
      // Unpadded base64url ends within its last group.
      places.push({ start: place.at + base64Start(at), end: place.at + Math.min(place.length, base64End(end)) });
    }
  }
  return places;
}

/** Where the base64 characters of the text from byte `at` begin, and those of the text up to byte `at` end. */
const base64Start = (at: number) => Math.floor(at / 3) * 4;
const base64End = (at: number) => Math.ceil(at / 3) * 4;

/** The feed as the renderers take it: every node resolved with the customer's UUID. */
export function feedInput(feed: CustomerFeed): FeedInput {
  return { proxies: feed.nodes.map((node) => resolveProxy(node, feed.uuid)), usage: feed.usage, title: feed.title };
}

/** A node list's template for one format and variant. */
export function cutTemplate(
  nodes: readonly NamedNode[],
  title: string,
  renderer: FeedRenderer,
  context: FeedRenderContext,
): Template {
  const standIns = [randomUUID(), randomUUID()] as const;
  const [first, second] = standIns.map((uuid) =>
    feedInput({ nodes, uuid, title, usage: { upload: 0, download: 0, total: 0, expire: 0 } }),
  ) as [FeedInput, FeedInput];
  const { credentials, cutAt } = credentialsOf(nodes, standIns[0]);
  const check = credentials.map((credential) => credential(standIns[1]));
  const cutChecked = (text: string, expected: string): Cut | Encoded | undefined => {
    const cut = cutAt(text);
    if (write(cut, check) === expected) return cut;
    const encoded = cutInsideBase64(text, expected, cutAt);
    return encoded && write(encoded, check) === expected ? encoded : undefined;
  };

  let parts: Template['parts'];
  let join: PartsJoin;
  let secondBody: string;
  if (renderer.perNode) {
    const { part } = renderer.perNode;
    join = renderer.perNode.join;
    const secondParts = second.proxies.map(part);
    parts = first.proxies.map(
      (proxy, index) =>
        cutChecked(part(proxy), secondParts[index]!) ??
        ((feed: CustomerFeed) => part(resolveProxy(feed.nodes[index]!, feed.uuid))),
    );
    secondBody = joinParts(join, secondParts).body;
  } else {
    const rendered = renderer.render(first, context);
    join = { separator: '', contentType: rendered.contentType };
    secondBody = renderer.render(second, context).body;
    parts = [
      cutChecked(rendered.body, secondBody) ?? ((feed: CustomerFeed) => renderer.render(feedInput(feed), context).body),
    ];
  }
  const kept = keepUsed(credentials, parts);
  const layout = layoutOf(kept, join.separator, standIns[0]);
  // Kept only if the second stand-in's bytes, written in, give its own render.
  const secondValues = kept.credentials.map((credential) => credential(standIns[1]));
  const secondBytes = layout && layoutBytes(layout, secondValues);
  const checked = secondBytes && writeLayout(layout, secondBytes);
  const checkedBody = checked && (join.encoding ? checked.toString(join.encoding) : checked.toString('utf8'));
  return { ...kept, join, ...(checkedBody === secondBody && { layout }) };
}

/** The joined parts laid out as bytes for a stand-in, when every part is cut. */
function layoutOf(
  { credentials, parts }: Pick<Template, 'credentials' | 'parts'>,
  separator: string,
  standIn: string,
): Layout | undefined {
  const values = credentials.map((credential) => credential(standIn));
  const chunks: Buffer[] = [];
  const writes: Write[] = [];
  let at = 0;
  const add = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    chunks.push(bytes);
    at += bytes.length;
  };
  const addCut = ({ pieces, holes }: Cut) => {
    add(pieces[0]!);
    holes.forEach((hole, index) => {
      writes.push({ at, credential: hole });
      add(values[hole]!);
      add(pieces[index + 1]!);
    });
  };
  for (const [index, part] of parts.entries()) {
    if (typeof part === 'function') return undefined;
    if (index > 0) add(separator);
    if (!('inner' in part)) {
      addCut(part);
      continue;
    }
    add(part.before);
    const run = laidOutRun(part, values);
    const encoded = run.decoded.toString(run.encoding);
    writes.push({ at, length: encoded.length, run });
    add(encoded);
    add(part.after);
  }
  return { text: Buffer.concat(chunks), writes, lengths: values.map((value) => Buffer.byteLength(value, 'utf8')) };
}

/** An encoded part's run laid out as bytes for a stand-in's credentials. */
function laidOutRun({ inner: { pieces, holes }, encoding }: Encoded, values: string[]): LaidOutRun {
  const places: LaidOutRun['places'] = [];
  let at = Buffer.byteLength(pieces[0]!, 'utf8');
  holes.forEach((hole, index) => {
    places.push({ at, credential: hole });
    at += Buffer.byteLength(values[hole]!, 'utf8') + Buffer.byteLength(pieces[index + 1]!, 'utf8');
  });
  return { encoding, decoded: Buffer.from(fillCut({ pieces, holes }, values), 'utf8'), places };
}

/**
 * The credentials a node list's renders may hold, as `resolveProxy` puts them in (each node's UUID and password) and
 * as formats write them, one per text they have for the stand-in UUID; and how to cut a text at those texts, the
 * longest where two start at the same place.
 */
function credentialsOf(nodes: readonly NamedNode[], standIn: string) {
  const credentials: Array<(uuid: string) => string> = [];
  const byText = new Map<string, number>();
  const add = (credential: (uuid: string) => string) => {
    const text = credential(standIn);
    if (byText.has(text)) return;
    byText.set(text, credentials.length);
    credentials.push(credential);
  };
  for (const form of WRITTEN_AS) {
    add((uuid) => form(uuid));
    for (const { node } of nodes) add((uuid) => form(passwordOn(node, uuid)));
  }
  const pattern = new RegExp(
    [...byText.keys()]
      .sort((a, b) => b.length - a.length)
      .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  const cutAt = (text: string): Cut => {
    const pieces: string[] = [];
    const holes: number[] = [];
    let from = 0;
    for (const match of text.matchAll(pattern)) {
      pieces.push(text.slice(from, match.index));
      holes.push(byText.get(match[0])!);
      from = match.index + match[0].length;
    }
    pieces.push(text.slice(from));
    return { pieces, holes };
  };
  return { credentials, cutAt };
}

/**
 * The base64 run around the first character where the two stand-ins' texts differ, cut inside its decoded text: the
 * run from the first place where it decodes to UTF-8 text that encodes back to it and holds a credential.
 */
function cutInsideBase64(text: string, other: string, cutAt: (text: string) => Cut): Encoded | undefined {
  let differs = 0;
  while (differs < text.length && text[differs] === other[differs]) differs++;
  let start = differs;
  while (start > 0 && BASE64_CHAR.test(text[start - 1]!)) start--;
  let end = differs;
  while (end < text.length && BASE64_CHAR.test(text[end]!)) end++;
  while (text[end] === '=') end++;
  for (let from = start; from < Math.min(end, differs + 1); from++) {
    const run = text.slice(from, end);
    for (const encoding of BASE64) {
      const decoded = Buffer.from(run, encoding).toString('utf8');
      if (Buffer.from(decoded, 'utf8').toString(encoding) !== run) continue;
      const inner = cutAt(decoded);
      if (inner.holes.length > 0) return { before: text.slice(0, from), inner, encoding, after: text.slice(end) };
    }
  }
  return undefined;
}

function write(part: Cut | Encoded, values: string[]): string {
  if (!('inner' in part)) return fillCut(part, values);
  return part.before + encodedRun(part, values) + part.after;
}

/** The base64 run of an encoded part, its credentials written in. */
function encodedRun(part: Encoded, values: string[]): string {
  return Buffer.from(fillCut(part.inner, values), 'utf8').toString(part.encoding);
}

function fillCut({ pieces, holes }: Cut, values: string[]): string {
  let text = pieces[0]!;
  for (let i = 0; i < holes.length; i++) text += values[holes[i]!]! + pieces[i + 1]!;
  return text;
}

/** Only the credentials some hole holds, numbered anew: a request works out no other. */
function keepUsed(
  credentials: Template['credentials'],
  parts: Template['parts'],
): Pick<Template, 'credentials' | 'parts'> {
  const numbers = new Map<number, number>();
  const kept: Template['credentials'] = [];
  const renumber = (hole: number) => {
    let index = numbers.get(hole);
    if (index === undefined) {
      index = kept.length;
      numbers.set(hole, index);
      kept.push(credentials[hole]!);
    }
    return index;
  };
  const renumbered = (cut: Cut): Cut => ({ pieces: cut.pieces, holes: cut.holes.map(renumber) });
  return {
    credentials: kept,
    parts: parts.map((part) => {
      if (typeof part === 'function') return part;
      return 'inner' in part ? { ...part, inner: renumbered(part.inner) } : renumbered(part);
    }),
  };
}
