import { CUSTOMER_MAX_DAYS, CUSTOMER_MAX_TRAFFIC_GB, type ErrorKey } from '@mutenet/contract';
import { AppError } from '../../lib/app-error.js';
import type { Account } from '../../modules/auth/users.service.js';
import type { CustomerPackage } from '../../modules/subscription/subscription.service.js';
import { CommandError, command, flag, given, integer, type Noun, type Parsed, text, UsageError } from '../command.js';
import type { AdminServices } from '../context.js';
import { isoTime, keyValues, table, toGb, yesNo } from '../output.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 10_000;

function email(value: string, what: string): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(text(value, what, 254))) {
    throw new UsageError(`bad ${what} "${value}": must be an email address`);
  }
  return value;
}

const emailArg = (parsed: Parsed) => email(parsed.positionals[0] ?? '', 'EMAIL');

function gigabytes(value: string): number {
  const gb = /^\d{1,7}(\.\d{1,3})?$/.test(value) ? Number(value) : Number.NaN;
  if (!(gb > 0 && gb <= CUSTOMER_MAX_TRAFFIC_GB)) {
    throw new UsageError(
      `bad --gb "${value}": must be more than 0 and at most ${CUSTOMER_MAX_TRAFFIC_GB}, as 100 or 0.5`,
    );
  }
  return gb;
}

/** The service's refusal `key` told in the command line's words. */
async function refusedAs(work: Promise<void>, key: ErrorKey, message: string): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError && error.key === key) throw new CommandError(message);
    throw error;
  }
}

const accountJson = (account: Account) => ({
  id: account.id,
  email: account.email,
  name: account.name,
  banned: account.banned,
  createdAt: isoTime(account.createdAt),
});

const packageJson = (pkg: CustomerPackage) => ({
  id: pkg.id,
  orderId: pkg.orderId,
  planNames: pkg.planNames,
  group: pkg.group,
  state: pkg.state,
  startAt: isoTime(pkg.startsAt),
  endAt: isoTime(pkg.endsAt),
  trafficUsed: pkg.trafficUsed,
  trafficTotal: pkg.trafficTotal,
});

function packagesTable(packages: CustomerPackage[]): string {
  return table(
    ['PKG', 'PLAN', 'GROUP', 'STATE', 'START', 'END', 'USED', 'TOTAL'],
    packages.map((pkg) => [
      String(pkg.id),
      pkg.planNames.en ?? '',
      pkg.group,
      pkg.state,
      isoTime(pkg.startsAt),
      isoTime(pkg.endsAt),
      `${toGb(pkg.trafficUsed)} GB`,
      `${toGb(pkg.trafficTotal)} GB`,
    ]),
    'no packages',
  );
}

async function account(users: AdminServices['users'], address: string): Promise<Account> {
  const found = await users.find(address);
  if (!found) throw new CommandError(`no user with the email ${address}`);
  return found;
}

/** The account with its packages, after a change when `headline` says what it was. */
async function shown({ users, subscriptions }: AdminServices, address: string, headline?: string) {
  const user = await account(users, address);
  const packages = await subscriptions.packagesOf(user.id);
  const details = keyValues([
    ['id', user.id],
    ['email', user.email],
    ['name', user.name],
    ['banned', yesNo(user.banned)],
    ['created', isoTime(user.createdAt)],
  ]);
  const body = `${details}\n\n${packagesTable(packages)}`;
  return {
    json: { ...accountJson(user), packages: packages.map(packageJson) },
    text: headline ? `${headline}\n${body}` : body,
  };
}

/** ban / unban: nodes drop (or take back) the user at their next pull. */
const banning = (banned: boolean) =>
  command({
    summary: banned
      ? 'bans a user: signed out everywhere, cannot sign in, and nodes and the subscription link stop serving them'
      : 'lifts a ban: the user may sign in again and is served while a package runs',
    args: ['EMAIL'],
    example: `admin user ${banned ? 'ban' : 'unban'} alice@example.com`,
    parse: emailArg,
    async run(address, services) {
      const user = await account(services.users, address);
      await services.customers.setBanned(user.id, banned);
      return shown(services, address, `${user.email} ${banned ? 'banned' : 'is no longer banned'}`);
    },
  });

export const userCommands: Noun = {
  summary: 'customers’ accounts and their packages',
  verbs: {
    list: command({
      summary: 'accounts, newest first',
      flags: {
        search: { value: 'TEXT', help: 'only those whose email or name contains this (any case), or of this id' },
        banned: { value: '', switch: true, help: 'only banned accounts' },
        limit: { value: 'N', help: `at most this many (default ${DEFAULT_LIMIT}, up to ${MAX_LIMIT})` },
      },
      example: 'admin user list --search @example.com --limit 20',
      parse(parsed) {
        const search = flag(parsed, 'search');
        const limit = flag(parsed, 'limit');
        return {
          ...(search !== undefined ? { search: text(search, '--search', 254) } : {}),
          bannedOnly: given(parsed, 'banned'),
          limit: limit === undefined ? DEFAULT_LIMIT : integer(limit, '--limit', 1, MAX_LIMIT),
        };
      },
      async run(query, { customers }) {
        const accounts = (await customers.search(query)).customers;
        return {
          json: accounts.map(accountJson),
          text: table(
            ['ID', 'EMAIL', 'NAME', 'BANNED', 'CREATED'],
            accounts.map((user) => [
              String(user.id),
              user.email,
              user.name,
              yesNo(user.banned),
              isoTime(user.createdAt),
            ]),
            'no users',
          ),
        };
      },
    }),
    show: command({
      summary: 'one account with its packages: running, queued, expired and ended ones',
      args: ['EMAIL'],
      example: 'admin user show alice@example.com',
      parse: emailArg,
      run: (address, services) => shown(services, address),
    }),
    ban: banning(true),
    unban: banning(false),
    'add-days': command({
      summary: 'extends the running package by N days, and moves the queued ones after it',
      args: ['EMAIL'],
      flags: { days: { value: 'N', help: `days to add, 1 to ${CUSTOMER_MAX_DAYS}`, required: true } },
      example: 'admin user add-days alice@example.com --days 7',
      parse: (parsed) => ({
        address: emailArg(parsed),
        days: integer(flag(parsed, 'days') ?? '', '--days', 1, CUSTOMER_MAX_DAYS),
      }),
      async run({ address, days }, services) {
        const user = await account(services.users, address);
        await refusedAs(
          services.customers.addDays(user.id, days),
          'CUSTOMER_NO_RUNNING_PACKAGE',
          `${user.email} has no running or queued package to extend`,
        );
        return shown(services, address, `${user.email}: ${days} day${days === 1 ? '' : 's'} added`);
      },
    }),
    'add-traffic': command({
      summary: 'raises the running package’s allowance by N GB (of every period, for a durational package)',
      args: ['EMAIL'],
      flags: { gb: { value: 'GB', help: 'GB (GiB) to add, as 100 or 0.5', required: true } },
      example: 'admin user add-traffic alice@example.com --gb 50',
      parse: (parsed) => ({ address: emailArg(parsed), gb: gigabytes(flag(parsed, 'gb') ?? '') }),
      async run({ address, gb }, services) {
        const user = await account(services.users, address);
        await refusedAs(
          services.customers.addTraffic(user.id, gb),
          'CUSTOMER_NO_RUNNING_PACKAGE',
          `${user.email} has no running package`,
        );
        return shown(services, address, `${user.email}: ${gb} GB added to the running package`);
      },
    }),
  },
};
