import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, expectFailure } from '../test/admin-cli.js';
import { COMMANDS } from './commands/index.js';
import { runAdmin } from './run-admin.js';

const README = path.resolve(import.meta.dirname, '../../../../README.md');

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
      /^admin: unknown command "nope": use plan, package, currency or order \(see: admin help\)$/m,
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
