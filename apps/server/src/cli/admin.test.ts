import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, expectFailure } from '../test/admin-cli.js';
import { COMMANDS } from './commands/index.js';
import { runAdmin } from './run-admin.js';

const README = path.resolve(import.meta.dirname, '../../../../README.md');
/** The start of a node add, and one of a plain vless node, for the refusals below. */
const NODE = ['node', 'add', '--name', 'N'];
const VLESS = [...NODE, '--type', 'vless', '--host', 'a.example.com', '--port', '443'];
const KEY = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';

// Help and bad command lines are refused before the database is opened, so one database kind covers them: the
// file DATABASE_URL names must not even come into being.
describe('admin command line', () => {
  let dir: string;
  let file: string;
  const run = (...args: string[]) => admin(`sqlite:${file}`, ...args);

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mutenet-admin-args-'));
    file = path.join(dir, 'untouched.db');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the usage of every command, and of one noun or command', { timeout: 60_000 }, async () => {
    const [help, dashHelp, noun, one, none] = await Promise.all([
      run('help'),
      run('--help'),
      run('plan', '--help'),
      run('package', 'add', '--help'),
      run(),
    ]);
    expect(help).toMatchObject({ status: 0, stderr: '' });
    expect(dashHelp.stdout).toBe(help.stdout);
    const readme = fs.readFileSync(README, 'utf8');
    for (const [name, { verbs }] of Object.entries(COMMANDS)) {
      for (const verb of Object.keys(verbs)) {
        expect(help.stdout).toContain(`admin ${name} ${verb}`);
        expect(readme, `README lists admin ${name} ${verb}`).toContain(`npm run admin -- ${name} ${verb}`);
      }
    }
    expect(help.stdout).toContain('--price CODE:OLD/REAL');
    // A switch takes no value.
    expect(help.stdout).toMatch(/^admin node add --name TEXT .*--host HOST --port N .*\[--hidden\] .*\[--json\]$/m);
    expect(help.stdout).toMatch(/^admin user list \[--search TEXT\] \[--banned\] \[--limit N\] \[--json\]$/m);
    expect(help.stdout).toMatch(/^ {6}--hidden {2,}keeps the node out/m);
    expect(noun).toMatchObject({ status: 0, stderr: '' });
    expect(noun.stdout).toContain('admin plan unhide ID');
    expect(noun.stdout).not.toContain('admin package add');
    expect(one.stdout).toMatch(
      /^admin package add --plan ID --label TEXT --days N --traffic-gb GB --price CODE:OLD\/REAL …/,
    );
    // No command at all: the usage, on standard error, as a bad command line.
    expect(none).toMatchObject({ status: 2, stdout: '' });
    expect(none.stderr).toContain('Usage: npm run admin -- <noun> <verb>');
  });

  it('refuses a bad command line with exit code 2 and one line on stderr', { timeout: 60_000 }, async () => {
    const [noun, flag, required, price] = await Promise.all([
      run('nope', 'list'),
      run('plan', 'add', '--group', 'traffic', '--name', 'X', '--colour', 'red'),
      run('plan', 'add', '--name', 'X'),
      run('package', 'add', '--plan', '1', '--label', 'L', '--days', '30', '--traffic-gb', '1', '--price', 'USD:-5/4'),
    ]);
    expectFailure(
      noun,
      2,
      /^admin: unknown command "nope": use plan, package, currency, order, user, node, notice, operator or backup \(see: admin help\)$/m,
    );
    expectFailure(flag, 2, /^admin: unknown flag --colour \(see: admin plan add --help\)$/m);
    expectFailure(required, 2, /^admin: --group is required \(see: admin plan add --help\)$/m);
    expectFailure(price, 2, /^admin: bad --price "USD:-5\/4": a price must not be negative/m);
    expect(fs.existsSync(file)).toBe(false);
  });

  // Every other check, in this process: a refused command line returns before the configuration is read.
  it.each<[string[], RegExp]>([
    [['plan'], /plan needs a verb: add, list, show, update, hide or unhide/],
    [['plan', 'fly'], /unknown verb "fly" for plan/],
    [['plan', 'add', '--group', 'weekly', '--name', 'X'], /--group must be traffic or durational/],
    [['plan', 'add', '--group', 'traffic', '--name'], /--name needs a value/],
    [['plan', 'add', '--group', 'traffic', '--name', ' '], /--name must not be empty/],
    [['plan', 'add', '--group', 'traffic', '--name', 'X', '--name', 'Y'], /--name is given twice/],
    [['plan', 'add', '--group', 'traffic', '--name', 'X', '--sort', 'ten'], /bad --sort "ten"/],
    [['plan', 'add', '--group', 'traffic', '--name', 'X', '--sort', '-1'], /--sort needs a value \(.*--sort=-/],
    [['plan', 'update', '1'], /nothing to change/],
    [['plan', 'hide', 'abc'], /bad plan id "abc"/],
    [['plan', 'hide', '1.5'], /bad plan id "1.5"/],
    [['plan', 'hide', '99999999999'], /bad plan id "99999999999"/],
    [['plan', 'show'], /missing ID/],
    [['plan', 'list', 'extra'], /unexpected argument "extra"/],
    [['plan', 'list', '--json=yes'], /--json takes no value/],
    [['package', 'add', '--plan', '1', '--label', 'L', '--days', '30', '--traffic-gb', '1'], /--price is required/],
    [
      ['package', 'add', '--plan', 'x', '--label', 'L', '--days', '30', '--traffic-gb', '1', '--price', 'USD:1/1'],
      /bad plan id "x"/,
    ],
    [
      ['package', 'add', '--plan', '1', '--label', 'L', '--days', '0', '--traffic-gb', '1', '--price', 'USD:1/1'],
      /bad --days "0"/,
    ],
    [
      ['package', 'add', '--plan', '1', '--label', 'L', '--days', '3', '--traffic-gb', '0', '--price', 'USD:1/1'],
      /bad --traffic-gb "0"/,
    ],
    [
      [
        'package',
        'add',
        '--plan',
        '1',
        '--label',
        'x'.repeat(65),
        '--days',
        '3',
        '--traffic-gb',
        '1',
        '--price',
        'USD:1/1',
      ],
      /--label must be at most 64 characters/,
    ],
    [['package', 'update', '4', '--price', 'USD5.99'], /bad --price "USD5.99": must be CODE:OLD\/REAL/],
    [['package', 'update', '4', '--price', 'US1:5.99/4.99'], /bad currency code "US1"/],
    [['package', 'update', '4', '--price', 'USD:5.99/-1'], /a price must not be negative/],
    [['package', 'update', '4', '--price', 'USD:5.99/4,99'], /"4,99" is not an amount/],
    [['package', 'update', '4', '--price', 'USD:5/4', '--price', 'usd:6/5'], /--price USD is given twice/],
    [['package', 'update', '4', '--plan', '2'], /unknown flag --plan/],
    [['package', 'update', '4'], /nothing to change/],
    [['package', 'remove'], /missing ID/],
    [['currency', 'add', '--code', 'EURO', '--name', 'Euro'], /bad currency code "EURO"/],
    [['currency', 'add', '--code', 'EUR', '--name', 'Euro', '--decimals', '9'], /bad --decimals "9"/],
    [['currency', 'add', '--code', 'EUR'], /--name is required/],
    [['currency', 'enable'], /missing CODE/],
    [['currency', 'disable', '€'], /bad currency code "€"/],
    [['order', 'list', '--status', 'paid'], /--status must be waiting, paying/],
    [['order', 'list', '--limit', '0'], /bad --limit "0"/],
    [['order', 'list', '--user', 'not-an-email'], /bad --user "not-an-email"/],
    [['order', 'show', '123'], /bad order number "123": must be 24 digits/],
    [['order', 'mark-paid', '20260801120000123456789x'], /bad order number/],
    [['order', 'refund'], /missing NO/],
    [['order', 'chargeback', '1', '2'], /unexpected argument "2"/],
    // node add: each flag's value, then the settings for the protocol.
    [['node', 'add', '--type', 'vless', '--host', 'a.example.com', '--port', '443'], /--name is required/],
    [
      [...NODE, '--type', 'wireguard', '--host', 'a.example.com', '--port', '1'],
      /--type must be vless, vmess, trojan, shadowsocks, hysteria2 or tuic/,
    ],
    [[...NODE, '--type', 'vless', '--host', 'a.example.com'], /--port is required/],
    [
      [...NODE, '--type', 'vless', '--host', 'a.example.com', '--port', '0'],
      /bad --port "0": must be a whole number from 1 to 65535/,
    ],
    [[...NODE, '--type', 'vless', '--host', 'a.example.com', '--port', '65536'], /bad --port "65536"/],
    [
      [...NODE, '--type', 'vless', '--host', 'not a host', '--port', '1'],
      /bad --host "not a host": must be a hostname or an IP address/,
    ],
    [[...NODE, '--type', 'vless', '--host', '999.1.1.1', '--port', '1'], /bad --host "999.1.1.1"/],
    [
      [...NODE, '--type', 'vless', '--host', 'http://a.example.com', '--port', '1'],
      /bad --host "http:\/\/a.example.com"/,
    ],
    [[...VLESS, '--mag', '0'], /bad --mag "0": must be more than 0 and at most 100/],
    [[...VLESS, '--mag', '100.5'], /bad --mag "100.5"/],
    [[...VLESS, '--mag', 'x'], /bad --mag "x"/],
    [[...VLESS, '--label', `a,${'b'.repeat(33)}`], /bad --label "b{33}": a label must be at most 32 characters/],
    [[...VLESS, '--hidden=yes'], /--hidden takes no value/],
    [[...VLESS, '--visible'], /unknown flag --visible/],
    [[...VLESS, '--name', 'x'.repeat(65)], /--name is given twice/],
    [
      ['node', 'add', '--name', 'x'.repeat(65), '--type', 'vless', '--host', 'a.b', '--port', '1'],
      /--name must be at most 64 characters/,
    ],
    [[...VLESS, '--tls', 'reality'], /--tls reality needs --reality-public-key, --reality-private-key and --sni/],
    [
      [...VLESS, '--tls', 'reality', '--reality-public-key', KEY, '--reality-private-key', KEY],
      /--tls reality needs --sni \(--sni: the site it borrows/,
    ],
    [
      [...VLESS, '--tls', 'reality', '--reality-public-key', 'short'],
      /bad --reality-public-key "short": must be an x25519 key/,
    ],
    [[...VLESS, '--tls', 'reality', '--reality-short-id', 'xyz'], /bad --reality-short-id "xyz"/],
    [[...VLESS, '--tls', 'tls', '--reality-public-key', KEY], /--reality-public-key needs --tls reality/],
    [[...VLESS, '--tls', 'quic'], /--tls must be none, tls or reality/],
    [[...VLESS, '--flow', 'xtls-rprx-vision'], /--flow needs --tls tls or reality/],
    [[...VLESS, '--tls', 'tls', '--network', 'ws', '--flow', 'xtls-rprx-vision'], /--flow needs --network tcp/],
    [[...VLESS, '--tls', 'tls', '--flow', 'xtls-rprx-direct'], /--flow must be xtls-rprx-vision/],
    [[...VLESS, '--network', 'kcp'], /--network must be tcp, ws, grpc or httpupgrade/],
    [[...VLESS, '--path', '/ws'], /--path needs --network ws or httpupgrade/],
    [[...VLESS, '--network', 'ws', '--path', 'ws'], /bad --path "ws": must start with \//],
    [[...VLESS, '--network', 'ws', '--host-header', 'not a host'], /bad --host-header "not a host"/],
    [[...VLESS, '--service-name', 'grpc'], /--service-name needs --network grpc/],
    [[...VLESS, '--sni', 'a.example.com'], /--sni needs --tls tls or reality/],
    [[...VLESS, '--tls', 'tls', '--sni', '1.2.3.4'], /bad --sni "1.2.3.4": must be a hostname/],
    [[...VLESS, '--tls', 'tls', '--fingerprint', 'opera'], /--fingerprint must be chrome, firefox/],
    [[...VLESS, '--cipher', 'aes-128-gcm'], /--cipher applies only to shadowsocks nodes, not vless/],
    [
      [...NODE, '--type', 'vmess', '--host', 'a.b', '--port', '1', '--flow', 'xtls-rprx-vision'],
      /--flow applies only to vless nodes, not vmess/,
    ],
    [
      [...NODE, '--type', 'vmess', '--host', 'a.b', '--port', '1', '--tls', 'reality'],
      /--tls reality applies only to vless nodes, not vmess/,
    ],
    [
      [...NODE, '--type', 'trojan', '--host', 'a.b', '--port', '1', '--tls', 'none'],
      /--tls none does not apply to trojan nodes: they always use TLS/,
    ],
    [
      [...NODE, '--type', 'shadowsocks', '--host', 'a.b', '--port', '1'],
      /a shadowsocks node needs --cipher: aes-128-gcm, aes-256-gcm/,
    ],
    [
      [...NODE, '--type', 'shadowsocks', '--host', 'a.b', '--port', '1', '--cipher', 'rc4-md5'],
      /--cipher must be aes-128-gcm/,
    ],
    [
      [...NODE, '--type', 'shadowsocks', '--host', 'a.b', '--port', '1', '--cipher', 'aes-128-gcm', '--sni', 'a.b'],
      /--sni does not apply to shadowsocks nodes/,
    ],
    [
      [...NODE, '--type', 'hysteria2', '--host', 'a.b', '--port', '1', '--network', 'ws'],
      /--network applies only to vless, vmess and trojan nodes, not hysteria2/,
    ],
    [
      [...NODE, '--type', 'hysteria2', '--host', 'a.b', '--port', '1', '--congestion-control', 'bbr'],
      /--congestion-control applies only to tuic nodes, not hysteria2/,
    ],
    [
      [...NODE, '--type', 'tuic', '--host', 'a.b', '--port', '1', '--obfs-password', 'x'],
      /--obfs-password applies only to hysteria2 nodes, not tuic/,
    ],
    [
      [...NODE, '--type', 'tuic', '--host', 'a.b', '--port', '1', '--congestion-control', 'reno'],
      /--congestion-control must be bbr, cubic or new_reno/,
    ],
    [['node', 'update', '1'], /nothing to change/],
    [['node', 'update', '1', '--hidden', '--visible'], /give --hidden or --visible, not both/],
    [['node', 'update', 'one', '--mag', '2'], /bad node id "one"/],
    [['node', 'update', '1', '--port', '70000'], /bad --port "70000"/],
    [['node', 'remove'], /missing ID/],
    [['node', 'token', '0'], /bad node id "0"/],
    [['node', 'list', '--online'], /unknown flag --online/],
    // user
    [['user', 'show'], /missing EMAIL/],
    [['user', 'show', 'nope'], /bad EMAIL "nope": must be an email address/],
    [['user', 'ban'], /missing EMAIL/],
    [['user', 'unban', 'a@b', 'c@d'], /unexpected argument "c@d"/],
    [['user', 'list', '--limit', '0'], /bad --limit "0"/],
    [['user', 'list', '--search', ' '], /--search must not be empty/],
    [['user', 'list', '--banned', 'yes'], /unexpected argument "yes"/],
    [['user', 'add-days', 'a@example.com'], /--days is required/],
    [['user', 'add-days', 'a@example.com', '--days', '0'], /bad --days "0": must be a whole number from 1 to 36500/],
    [['user', 'add-days', 'a@example.com', '--days', '1.5'], /bad --days "1.5"/],
    [['user', 'add-traffic', 'a@example.com'], /--gb is required/],
    [['user', 'add-traffic', 'a@example.com', '--gb', '0'], /bad --gb "0": must be more than 0/],
    [['user', 'add-traffic', 'a@example.com', '--gb', 'lots'], /bad --gb "lots"/],
    [['user', 'add-traffic', '--gb', '5'], /missing EMAIL/],
    // notice
    [['notice', 'set'], /--text is required/],
    [['notice', 'set', '--text', ' '], /--text must not be empty/],
    [['notice', 'set', '--text', 'x'.repeat(20_001)], /--text must be at most 20000 characters/],
    [['notice', 'set', '--text', 'Hi', '--text-pt', ''], /--text-pt must not be empty/],
    [['notice', 'clear', 'now'], /unexpected argument "now"/],
    [['notice', 'show', '--text', 'x'], /unknown flag --text/],
  ])('refuses admin %j', async (args, message) => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) };
    const status = await runAdmin(args, io, { DATABASE_URL: `sqlite:${file}` });
    expect({ status, out }).toEqual({ status: 2, out: [] });
    expect(err).toEqual([expect.stringMatching(/^admin: [^\n]+\n$/)]);
    expect(err[0]).toMatch(message);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('stops at a bad configuration with exit code 78, as the server', async () => {
    const result = await admin('mysql://localhost/db', 'plan', 'list');
    expect(result).toMatchObject({ status: 78, stdout: '' });
    expect(result.stderr).toBe('admin: invalid configuration: DATABASE_URL: must start with sqlite: or postgres://\n');
  });
});
