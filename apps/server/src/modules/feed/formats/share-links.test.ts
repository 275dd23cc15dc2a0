import { describe, expect, it } from 'vitest';
import type { ResolvedProxy } from '../../nodes/proxy.model.js';
import { EMPTY_INPUT, FIXTURE_INPUT, FIXTURE_PROXIES } from '../__fixtures__/feed-input.js';
import { expectGolden } from '../__fixtures__/golden.js';
import { renderShareLinks, shareLink } from './share-links.js';

const golden = (name: string) => new URL(`./__golden__/${name}`, import.meta.url);

/** Standard alphabet, padded: what `Convert.FromBase64String`, Go's StdEncoding and Java's decoder all accept. */
function decodeStandardBase64(body: string): string {
  expect(body).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
  expect(body.length % 4).toBe(0);
  const bytes = Buffer.from(body, 'base64');
  expect(bytes.toString('base64')).toBe(body);
  return bytes.toString('utf8');
}

function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** v2rayNG splits the raw query on `&` and `=` before decoding: every value must survive that. */
function naiveQuery(url: URL): Map<string, string> {
  const raw = url.search.slice(1);
  const map = new Map<string, string>();
  for (const pair of raw.split('&')) {
    const parts = pair.split('=');
    expect(parts).toHaveLength(2);
    map.set(parts[0]!, decodeURIComponent(parts[1]!));
  }
  return map;
}

function byId(id: number): ResolvedProxy {
  const proxy = FIXTURE_PROXIES.find((candidate) => candidate.id === id);
  if (!proxy) throw new Error(`no fixture ${id}`);
  return proxy;
}

describe('renderShareLinks', () => {
  const feed = renderShareLinks(FIXTURE_INPUT);
  const decoded = decodeStandardBase64(feed.body);
  const lines = decoded.split('\n');

  it('is standard padded base64 of one link per node, joined by \\n, as text/plain', () => {
    expect(feed.contentType).toBe('text/plain; charset=utf-8');
    expect(lines).toHaveLength(FIXTURE_PROXIES.length);
    expect(decoded).not.toContain('\r');
    expectGolden(golden('share-links.txt'), `${decoded}\n`);
  });

  it('keeps every link to printable ASCII, with names percent-encoded in the fragment (vmess: in its JSON)', () => {
    for (const [index, line] of lines.entries()) {
      expect(line).toMatch(/^[\x21-\x7e]+$/);
      const proxy = FIXTURE_PROXIES[index]!;
      if (proxy.protocol === 'vmess') continue;
      expect(decodeURIComponent(new URL(line).hash.slice(1))).toBe(proxy.name);
    }
  });

  it('writes vless links that parse back to every field', () => {
    for (const proxy of FIXTURE_PROXIES.filter((p) => p.protocol === 'vless')) {
      const url = new URL(shareLink(proxy));
      expect(url.protocol).toBe('vless:');
      expect(decodeURIComponent(url.username)).toBe(proxy.uuid);
      expect(bareHostname(url)).toBe(proxy.host);
      expect(Number(url.port)).toBe(proxy.port);
      const query = naiveQuery(url);
      expect(query.get('encryption')).toBe('none');
      expect(query.get('security')).toBe(proxy.tls.mode);
      expect(query.get('sni')).toBe(proxy.tls.sni ?? proxy.host);
      expect(query.get('type')).toBe(proxy.transport.network);
      expect(query.get('flow')).toBe(proxy.flow);
      expect(query.get('fp')).toBe(proxy.tls.fingerprint);
      expect(query.get('pbk')).toBe(proxy.tls.realityPublicKey);
      expect(query.get('sid')).toBe(proxy.tls.realityShortId);
      expect(query.get('serviceName')).toBe(proxy.transport.serviceName);
      expect(query.get('host')).toBe(proxy.transport.host);
      if (proxy.transport.network === 'ws' || proxy.transport.network === 'httpupgrade') {
        expect(query.get('path')).toBe(proxy.transport.path);
      }
    }
  });

  it('brackets an IPv6 host', () => {
    const line = shareLink(byId(3));
    expect(line).toContain('@[2001:db8::1]:8443?');
    expect(new URL(line).hostname).toBe('[2001:db8::1]');
  });

  it('writes vmess as base64 of v2rayN JSON whose every value is a string', () => {
    for (const proxy of FIXTURE_PROXIES.filter((p) => p.protocol === 'vmess')) {
      const line = shareLink(proxy);
      expect(line.startsWith('vmess://')).toBe(true);
      const json = JSON.parse(decodeStandardBase64(line.slice('vmess://'.length))) as Record<string, unknown>;
      for (const value of Object.values(json)) expect(typeof value).toBe('string');
      expect(json).toMatchObject({
        v: '2',
        ps: proxy.name,
        add: proxy.host,
        port: String(proxy.port),
        id: proxy.uuid,
        aid: '0',
        scy: 'auto',
        net: proxy.transport.network,
        type: 'none',
        tls: proxy.tls.mode === 'none' ? '' : 'tls',
      });
      expect(Number(json.port)).toBe(proxy.port);
    }
    const ws = JSON.parse(Buffer.from(shareLink(byId(5)).slice(8), 'base64').toString()) as Record<string, string>;
    expect(ws).toMatchObject({ host: 'br.example.com', path: '/vmess', sni: 'br.example.com', fp: 'chrome' });
  });

  it('writes trojan links whose password and options parse back', () => {
    for (const proxy of FIXTURE_PROXIES.filter((p) => p.protocol === 'trojan')) {
      const url = new URL(shareLink(proxy));
      expect(url.protocol).toBe('trojan:');
      expect(decodeURIComponent(url.username)).toBe(proxy.password);
      expect(url.password).toBe('');
      expect(bareHostname(url)).toBe(proxy.host);
      expect(Number(url.port)).toBe(proxy.port);
      const query = naiveQuery(url);
      expect(query.get('security')).toBe('tls');
      expect(query.get('sni')).toBe(proxy.tls.sni);
      expect(query.get('type')).toBe(proxy.transport.network);
      expect(query.get('serviceName')).toBe(proxy.transport.serviceName);
      expect(query.get('allowInsecure')).toBe(proxy.tls.allowInsecure ? '1' : undefined);
    }
  });

  it('writes SIP002 shadowsocks: base64url userinfo for AEAD, plain percent-encoded userinfo for 2022', () => {
    const aead = new URL(shareLink(byId(9)));
    expect(aead.protocol).toBe('ss:');
    expect(aead.username).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(aead.password).toBe('');
    expect(Buffer.from(aead.username, 'base64url').toString()).toBe('aes-256-gcm:s3cr3t+/=pass');
    expect(bareHostname(aead)).toBe('ss.example.com');
    expect(Number(aead.port)).toBe(8388);

    const v2022 = new URL(shareLink(byId(10)));
    expect(decodeURIComponent(v2022.username)).toBe('2022-blake3-aes-128-gcm');
    expect(decodeURIComponent(v2022.password)).toBe(byId(10).password);
    expect(v2022.password).not.toMatch(/[+/=:]/);
    expect(decodeURIComponent(v2022.hash.slice(1))).toBe('SS 2022 中文 节点');
  });

  it('writes hysteria2 links in the official URI scheme', () => {
    const proxy = byId(11);
    const url = new URL(shareLink(proxy));
    expect(url.protocol).toBe('hysteria2:');
    expect(decodeURIComponent(url.username)).toBe(proxy.password);
    expect(Number(url.port)).toBe(proxy.port);
    const query = naiveQuery(url);
    expect(Object.fromEntries(query)).toEqual({
      sni: 'hy2.example.com',
      obfs: 'salamander',
      'obfs-password': 'obfs-secret',
      insecure: '0',
    });
  });

  it('writes tuic links with uuid:password', () => {
    const proxy = byId(12);
    const url = new URL(shareLink(proxy));
    expect(url.protocol).toBe('tuic:');
    expect(decodeURIComponent(url.username)).toBe(proxy.uuid);
    expect(decodeURIComponent(url.password)).toBe(proxy.password);
    expect(Object.fromEntries(naiveQuery(url))).toEqual({
      congestion_control: 'bbr',
      alpn: 'h3',
      sni: 'tuic.example.com',
      udp_relay_mode: 'native',
    });
  });

  it('percent-encodes credentials and names that hold URL delimiters', () => {
    const hostile: ResolvedProxy = {
      ...byId(7),
      name: 'a#b&c?d=e/f g%h+i',
      password: 'x@y:z/w?v#u&t=s%r+q',
    };
    const url = new URL(shareLink(hostile));
    expect(decodeURIComponent(url.username)).toBe(hostile.password);
    expect(url.hostname).toBe('tr.example.com');
    expect(decodeURIComponent(url.hash.slice(1))).toBe(hostile.name);
  });

  it('refuses a shadowsocks node without a cipher instead of writing a broken link', () => {
    const { cipher: _cipher, ...withoutCipher } = byId(9);
    expect(() => shareLink(withoutCipher)).toThrow(/cipher/);
  });

  it('renders a user without nodes as the base64 of nothing', () => {
    const feed = renderShareLinks(EMPTY_INPUT);
    expect(feed.body).toBe('');
    expect(Buffer.from(feed.body, 'base64').toString()).toBe('');
  });
});
