/**
 * The house plan as rules (`npm run deps`, run by `npm test`): which folder may import which, and
 * no import cycles. README "Layout" says the same in prose.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Modules import downward only: a cycle means two modules that cannot be read or tested apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-stays-below',
      comment: 'The engine never imports the hapi plugins, the formatters, the command, benches, scripts or tests.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(plugins|formatters|ci-providers|bin|bench|scripts|test)/' },
    },
    {
      name: 'formatters-use-the-api',
      comment: 'A formatter imports only the public formatter API (and its own folder), as a plugin would.',
      severity: 'error',
      from: { path: '^formatters/', pathNot: '\\.test\\.ts$|^formatters/[^/]+/generate\\.ts$' },
      to: { path: '^(lib|plugins|bin|bench|scripts|test)/', pathNot: '^lib/formatter/api\\.ts$' },
    },
    {
      name: 'ci-providers-use-the-api',
      comment: 'A CI provider imports only the public provider API (and its own folder), as a plugin would.',
      severity: 'error',
      from: { path: '^ci-providers/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(lib|plugins|bin|bench|scripts|test|formatters)/', pathNot: '^lib/ci/api\\.ts$' },
    },
    {
      name: 'formatter-folders-apart',
      comment: 'One folder owns one format; shared parts belong in the kit (lib/formatter/kit/).',
      severity: 'error',
      from: { path: '^formatters/([^/]+)/' },
      to: { path: '^formatters/', pathNot: '^formatters/$1/' },
    },
    {
      name: 'formatter-layer-stays-below',
      comment: 'The formatter API, kit, registry, loader and check know nothing of imports, stores or history.',
      severity: 'error',
      from: { path: '^lib/formatter/' },
      to: { path: '^lib/(import|store|history|limits|client|telemetry)/' },
    },
    {
      name: 'kit-below-api',
      comment: 'The kit builds on the API types; api.ts re-exports the kit, never the other way.',
      severity: 'error',
      from: { path: '^lib/formatter/kit/' },
      to: { path: '^lib/formatter/(api|registry|loader|check)\\.ts$' },
    },
    {
      name: 'adapters-only-from-the-root',
      comment:
        'Only the composition root (bin/, plugins/server.ts) and tests pick a concrete store; lib/ sees the ' +
        'Store interface.',
      severity: 'error',
      from: { path: '^(lib|plugins)/', pathNot: '^lib/store/(embedded|mongo)/' },
      to: { path: '^lib/store/(embedded|mongo)/' },
    },
    {
      name: 'adapters-apart',
      comment: 'The two adapters share what lib/store/ writes once, never each other.',
      severity: 'error',
      from: { path: '^lib/store/(embedded|mongo)/' },
      to: { path: '^lib/store/(embedded|mongo)/', pathNot: '^lib/store/$1/' },
    },
    {
      name: 'store-below-import',
      comment: 'The store keeps what an import made; it never reaches into the import pipeline.',
      severity: 'error',
      from: { path: '^lib/store/' },
      to: { path: '^lib/(import|client|limits)/' },
    },
    {
      name: 'history-below-import',
      comment: 'History columns and the comparison are domain code both the import and the store use.',
      severity: 'error',
      from: { path: '^lib/history/' },
      to: { path: '^lib/(import|store/(embedded|mongo))/' },
    },
    {
      name: 'import-through-its-entry',
      comment:
        'Plugins and the command start imports and read their answers through lib/import/index.ts; the stages ' +
        "behind it are the pipeline's own.",
      severity: 'error',
      from: { path: '^(plugins|bin)/' },
      to: { path: '^lib/import/', pathNot: '^lib/import/index\\.ts$' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|coverage|\\.tap)/|/fixtures/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
