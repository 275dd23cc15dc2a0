import { CURRENCY_DECIMALS_MAX, CURRENCY_NAME_MAX, SORT_LIMIT } from '@mutenet/contract';
import type { CatalogService } from '../../modules/catalog/catalog.service.js';
import { CommandError, command, currencyCode, flag, integer, type Noun, type Parsed, text } from '../command.js';
import { keyValues, table, yesNo } from '../output.js';
import { refusedAs } from './package.js';

type CurrencyRow = Awaited<ReturnType<CatalogService['listAllCurrencies']>>[number];

const MAX_DECIMALS = CURRENCY_DECIMALS_MAX;
const NAME_MAX = CURRENCY_NAME_MAX;

const currencyJson = (row: CurrencyRow) => ({
  code: row.code,
  name: row.name,
  decimals: row.decimals,
  enabled: row.enabled === 1,
  sort: row.sort,
});

const currencyText = (row: CurrencyRow) =>
  keyValues([
    ['code', row.code],
    ['name', row.name],
    ['decimals', row.decimals],
    ['enabled', yesNo(row.enabled === 1)],
    ['sort', row.sort],
  ]);

async function shown(catalog: CatalogService, code: string, headline: string) {
  const row = await catalog.findCurrency(code);
  if (!row) throw new CommandError(`currency ${code} not found`);
  return { json: currencyJson(row), text: `${headline}\n${currencyText(row)}` };
}

const codeArg = (parsed: Parsed) => currencyCode(parsed.positionals[0] ?? '');

/** enable / disable */
const switchTo = (enabled: boolean) =>
  command({
    summary: enabled
      ? 'offers the currency at checkout again'
      : 'stops offering the currency: its prices stay but are not shown, and no new order is made in it',
    args: ['CODE'],
    example: `admin currency ${enabled ? 'enable' : 'disable'} BRL`,
    parse: codeArg,
    async run(code, { catalog }) {
      await refusedAs(
        catalog.setCurrencyEnabled(code, enabled),
        'CURRENCY_NOT_FOUND',
        () => new CommandError(`currency ${code} not found`),
      );
      return shown(catalog, code, `currency ${code} ${enabled ? 'enabled' : 'disabled'}`);
    },
  });

export const currencyCommands: Noun = {
  summary: 'the currencies prices are given and paid in',
  verbs: {
    add: command({
      summary: 'adds a currency (enabled); prices in it are entered with its number of decimals',
      flags: {
        code: { value: 'CODE', help: 'ISO 4217 code, three letters', required: true },
        name: { value: 'TEXT', help: `name shown to customers (at most ${NAME_MAX} characters)`, required: true },
        decimals: { value: 'N', help: `digits after the point, 0 to ${MAX_DECIMALS} (default 2; 0 for CLP)` },
        sort: { value: 'N', help: 'position in the list, smaller first (default 0)' },
      },
      example: 'admin currency add --code EUR --name "Euro" --decimals 2',
      parse(parsed) {
        const decimals = flag(parsed, 'decimals');
        const sort = flag(parsed, 'sort');
        return {
          code: currencyCode(flag(parsed, 'code') ?? ''),
          name: text(flag(parsed, 'name') ?? '', '--name', NAME_MAX),
          decimals: decimals === undefined ? 2 : integer(decimals, '--decimals', 0, MAX_DECIMALS),
          sort: sort === undefined ? 0 : integer(sort, '--sort', -SORT_LIMIT, SORT_LIMIT),
        };
      },
      async run({ code, name, decimals, sort }, { catalog }) {
        await refusedAs(
          catalog.addCurrency(code, name, decimals, sort),
          'CURRENCY_EXISTS',
          () => new CommandError(`currency ${code} exists already`),
        );
        return shown(catalog, code, `currency ${code} added`);
      },
    }),
    list: command({
      summary: 'every currency, disabled ones too',
      example: 'admin currency list',
      parse: () => null,
      async run(_input, { catalog }) {
        const rows = await catalog.listAllCurrencies();
        return {
          json: rows.map(currencyJson),
          text: table(
            ['CODE', 'NAME', 'DECIMALS', 'ENABLED', 'SORT'],
            rows.map((row) => [row.code, row.name, String(row.decimals), yesNo(row.enabled === 1), String(row.sort)]),
            'no currencies',
          ),
        };
      },
    }),
    enable: switchTo(true),
    disable: switchTo(false),
  },
};
