import {
  PLAN_CONTENT_MAX,
  PLAN_GROUPS,
  PLAN_NAME_MAX,
  type PlanGroup,
  REQUEST_LANGUAGES,
  SORT_LIMIT,
} from '@mutenet/contract';
import { type Localized, localized } from '../../lib/localized.js';
import type { CatalogService, PricedPackage } from '../../modules/catalog/catalog.service.js';
import {
  CommandError,
  command,
  type FlagSpec,
  flag,
  id,
  integer,
  type Noun,
  oneOf,
  type Parsed,
  text,
  UsageError,
} from '../command.js';
import { keyValues, table, toGb, yesNo } from '../output.js';
import { hasTexts, merged, type Texts, texts } from '../texts.js';
import { packageJson, pricesText, refusedAs } from './package.js';

type PlanRow = NonNullable<Awaited<ReturnType<CatalogService['findPlan']>>>;

const NAME_MAX = PLAN_NAME_MAX;
const CONTENT_MAX = PLAN_CONTENT_MAX;

const FLAGS = {
  group: { value: 'traffic|durational', help: 'the tab the plan is listed under' },
  name: {
    value: 'TEXT',
    help: 'name in every language (en, pt-BR, zh-Hans) unless --name-pt or --name-zh say otherwise',
  },
  'name-pt': { value: 'TEXT', help: 'name in Portuguese (pt-BR)' },
  'name-zh': { value: 'TEXT', help: 'name in Chinese (zh-Hans)' },
  content: {
    value: 'HTML',
    help: 'description in every language unless --content-pt or --content-zh say otherwise; scripts, styles and event handlers are removed',
  },
  'content-pt': { value: 'HTML', help: 'description in Portuguese (pt-BR)' },
  'content-zh': { value: 'HTML', help: 'description in Chinese (zh-Hans)' },
  sort: { value: 'N', help: 'position in the list, smaller first (default 0)' },
} satisfies Record<string, FlagSpec>;

type PlanFields = { group?: PlanGroup; names: Texts; contents: Texts; sort?: number };

function planFields(parsed: Parsed): PlanFields {
  const name = (key: string) => {
    const value = flag(parsed, key);
    return value === undefined ? undefined : text(value, `--${key}`, NAME_MAX);
  };
  const content = (key: string) => {
    const value = flag(parsed, key);
    if (value !== undefined && [...value].length > CONTENT_MAX) {
      throw new UsageError(`--${key} must be at most ${CONTENT_MAX} characters`);
    }
    return value;
  };
  const group = flag(parsed, 'group');
  const sort = flag(parsed, 'sort');
  return {
    ...(group !== undefined ? { group: oneOf(group, '--group', PLAN_GROUPS) } : {}),
    names: texts(name('name'), name('name-pt'), name('name-zh')),
    contents: texts(content('content'), content('content-pt'), content('content-zh')),
    ...(sort !== undefined ? { sort: integer(sort, '--sort', -SORT_LIMIT, SORT_LIMIT) } : {}),
  };
}

const parseTexts = (json: string) => JSON.parse(json) as Localized;

function planJson(plan: PlanRow, packages: PricedPackage[]) {
  return {
    id: plan.id,
    group: plan.plan_group,
    visible: plan.visible === 1,
    sort: plan.sort,
    names: parseTexts(plan.names),
    contents: parseTexts(plan.contents),
    packages: packages.filter((pkg) => pkg.plan_id === plan.id).map(packageJson),
  };
}

function packagesTable(packages: PricedPackage[]): string {
  return table(
    ['PKG', 'LABEL', 'DAYS', 'TRAFFIC', 'SORT', 'PRICES (old/real)'],
    packages.map((pkg) => [
      String(pkg.id),
      pkg.label,
      String(pkg.days),
      `${toGb(pkg.traffic_bytes)} GB`,
      String(pkg.sort),
      pricesText(pkg),
    ]),
    'no packages',
  );
}

function planText(plan: PlanRow, packages: PricedPackage[]): string {
  const names = parseTexts(plan.names);
  const contents = parseTexts(plan.contents);
  const details = keyValues([
    ['id', plan.id],
    ['group', plan.plan_group],
    ['visible', yesNo(plan.visible === 1)],
    ['sort', plan.sort],
    ...REQUEST_LANGUAGES.map((lang): [string, string] => [`name (${lang})`, names[lang] ?? '']),
    ...REQUEST_LANGUAGES.map((lang): [string, string] => [`content (${lang})`, contents[lang] ?? '']),
  ]);
  return `${details}\n\n${packagesTable(packages)}`;
}

async function shown(catalog: CatalogService, planId: number, headline?: string) {
  const plan = await catalog.findPlan(planId);
  if (!plan) throw new CommandError(`plan ${planId} not found`);
  const packages = await catalog.packagesOf([plan.id]);
  const body = planText(plan, packages);
  return { json: planJson(plan, packages), text: headline ? `${headline}\n${body}` : body };
}

const planId = (parsed: Parsed) => id(parsed.positionals[0] ?? '', 'plan id');

/** hide / unhide */
const visibility = (visible: boolean) =>
  command({
    summary: visible
      ? 'lists a hidden plan in the shop again'
      : 'takes a plan out of the shop (GET /mutenet/packages); its orders and packages stay',
    args: ['ID'],
    example: `admin plan ${visible ? 'unhide' : 'hide'} 1`,
    parse: planId,
    async run(id, { catalog }) {
      await refusedAs(catalog.setPlanVisible(id, visible), 'NOT_FOUND', () => new CommandError(`plan ${id} not found`));
      return shown(catalog, id, `plan ${id} ${visible ? 'is listed again' : 'hidden'}`);
    },
  });

export const planCommands: Noun = {
  summary: 'plans: a name and content per language, a group, and packages',
  verbs: {
    add: command({
      summary: 'adds a plan (visible); give it packages with "package add"',
      flags: { ...FLAGS, group: { ...FLAGS.group, required: true }, name: { ...FLAGS.name, required: true } },
      example:
        'admin plan add --group durational --name "Unlimited" --name-zh "无限" --content "<p>200 GB every 30 days</p>"',
      parse: planFields,
      async run(input, { catalog }) {
        const empty = localized('');
        const id = await catalog.addPlan({
          group: input.group ?? 'traffic',
          names: merged(input.names, empty),
          contents: merged({ all: '', ...input.contents }, empty),
          ...(input.sort !== undefined ? { sort: input.sort } : {}),
        });
        return shown(catalog, id, `plan ${id} added`);
      },
    }),
    list: command({
      summary: 'every plan, hidden ones too, with its packages and their prices in every currency',
      example: 'admin plan list --json',
      parse: () => null,
      async run(_input, { catalog }) {
        const plans = await catalog.listAllPlans();
        const packages = await catalog.packagesOf(plans.map((plan) => plan.id));
        const rows: string[][] = [];
        for (const plan of plans) {
          const names = parseTexts(plan.names);
          const planCells = [
            String(plan.id),
            plan.plan_group,
            yesNo(plan.visible === 1),
            String(plan.sort),
            REQUEST_LANGUAGES.map((lang) => names[lang] ?? '').join(' / '),
          ];
          const own = packages.filter((pkg) => pkg.plan_id === plan.id);
          if (own.length === 0) rows.push([...planCells, '-', '-', '-', '-', '-']);
          own.forEach((pkg, i) => {
            rows.push([
              ...(i === 0 ? planCells : planCells.map(() => '')),
              String(pkg.id),
              pkg.label,
              String(pkg.days),
              `${toGb(pkg.traffic_bytes)} GB`,
              pricesText(pkg),
            ]);
          });
        }
        return {
          json: plans.map((plan) => planJson(plan, packages)),
          text: table(
            [
              'PLAN',
              'GROUP',
              'VISIBLE',
              'SORT',
              `NAME (${REQUEST_LANGUAGES.join(' / ')})`,
              'PKG',
              'LABEL',
              'DAYS',
              'TRAFFIC',
              'PRICES (old/real)',
            ],
            rows,
            'no plans',
          ),
        };
      },
    }),
    show: command({
      summary: 'one plan with its contents and packages',
      args: ['ID'],
      example: 'admin plan show 1',
      parse: planId,
      run: (id, { catalog }) => shown(catalog, id),
    }),
    update: command({
      summary: 'changes a plan: --name sets every language, --name-pt / --name-zh one; the same for --content',
      args: ['ID'],
      flags: FLAGS,
      example: 'admin plan update 1 --name-pt "Ilimitado" --sort 2',
      parse(parsed) {
        const id = planId(parsed);
        const fields = planFields(parsed);
        if (!fields.group && fields.sort === undefined && !hasTexts(fields.names) && !hasTexts(fields.contents)) {
          throw new UsageError(
            `nothing to change: give at least one of ${Object.keys(FLAGS)
              .map((f) => `--${f}`)
              .join(', ')}`,
          );
        }
        return { id, ...fields };
      },
      async run({ id, group, names, contents, sort }, { catalog }) {
        const plan = await catalog.findPlan(id);
        if (!plan) throw new CommandError(`plan ${id} not found`);
        const change = catalog.updatePlan(id, {
          ...(group ? { group } : {}),
          ...(hasTexts(names) ? { names: merged(names, parseTexts(plan.names)) } : {}),
          ...(hasTexts(contents) ? { contents: merged(contents, parseTexts(plan.contents)) } : {}),
          ...(sort !== undefined ? { sort } : {}),
        });
        await refusedAs(change, 'NOT_FOUND', () => new CommandError(`plan ${id} not found`));
        return shown(catalog, id, `plan ${id} updated`);
      },
    }),
    hide: visibility(false),
    unhide: visibility(true),
  },
};
