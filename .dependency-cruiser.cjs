/**
 * The boundaries of anchors.md, checked by `npm test`:
 * server: shared infrastructure knows no domain; lib/ imports nothing of the server above it; a module reaches another
 * only through its service;
 * web: features never import each other, and shared code imports no feature; nowhere an import cycle.
 */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'contract-imports-only-zod',
      severity: 'error',
      from: { path: '^packages/contract/src' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-peer', 'npm-optional'], pathNot: '^node_modules/zod/' },
    },
    {
      name: 'server-infrastructure-knows-no-domain',
      severity: 'error',
      from: { path: '^apps/server/src/(plugins|db|lib)/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'server-lib-imports-nothing-above-it',
      severity: 'error',
      from: { path: '^apps/server/src/lib/' },
      to: { path: '^apps/server/src/', pathNot: '^apps/server/src/lib/' },
    },
    {
      name: 'server-module-reaches-another-only-through-its-service',
      severity: 'error',
      from: { path: '^apps/server/src/modules/([^/]+)/' },
      to: {
        path: '^apps/server/src/modules/([^/]+)/',
        pathNot: ['^apps/server/src/modules/$1/', '\\.service\\.ts$', '\\.plugin\\.ts$', '\\.model\\.ts$'],
      },
    },
    {
      name: 'server-sql-only-in-repositories-and-db',
      severity: 'error',
      from: {
        path: '^apps/server/src/',
        pathNot: ['\\.repository\\.ts$', '^apps/server/src/db/', '^apps/server/src/test/', '\\.test\\.ts$'],
      },
      to: { path: '^node_modules/(kysely|better-sqlite3|pg)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'web-features-do-not-import-each-other',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/([^/]+)/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-shared-code-imports-no-feature-or-app',
      severity: 'error',
      from: { path: '^apps/web/src/(components|lib|i18n|testing)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'web-features-do-not-import-the-app',
      severity: 'error',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(apps|packages)/[^/]+/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
