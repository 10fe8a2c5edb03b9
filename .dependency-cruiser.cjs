/** The layer rules (docs/architecture.md; departures in docs/decisions.md), enforced. `npm run lint` fails on any violation. */
module.exports = {
  forbidden: [
    {
      name: 'core-is-the-foundation',
      comment: 'core imports only zustand/vanilla, eventsource-parser and itself: no React, no other layer.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: {
        pathNot: ['^src/core/', '^node_modules/(zustand|eventsource-parser)/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'core-without-react-types',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/(react|server|mock)/', '^node_modules/(react|react-dom|@types/react)/'] },
    },
    {
      name: 'react-not-server-or-mock',
      severity: 'error',
      from: { path: '^src/react/' },
      to: { path: '^src/(server|mock)/' },
    },
    {
      name: 'server-not-react-or-mock',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: ['^src/(react|mock)/', '^node_modules/(react|react-dom|@radix-ui)/'] },
    },
    {
      name: 'mock-not-react-or-server',
      comment:
        'The mock transport runs the real proxy (docs/decisions.md): mock-transport.ts alone reaches the server, through its public index.',
      severity: 'error',
      from: { path: '^src/mock/' },
      to: {
        path: ['^src/(react|server)/', '^node_modules/(react|react-dom|@radix-ui)/'],
        pathNot: '^src/server/index\\.ts$',
      },
    },
    {
      name: 'only-the-mock-transport-runs-the-proxy',
      severity: 'error',
      from: { path: '^src/mock/', pathNot: '^src/mock/mock-transport\\.ts$' },
      to: { path: '^src/server/' },
    },
    {
      name: 'other-layers-use-the-core-entry',
      comment: 'server, mock and react reach core only through its public index.',
      severity: 'error',
      from: { path: '^src/(react|server|mock)/' },
      to: { path: '^src/core/', pathNot: '^src/core/index\\.ts$' },
    },
    {
      name: 'tests-and-stories-use-public-entries',
      comment: 'test/, stories/ and scripts/ import agent-embed, agent-embed/core, /server or /mock, never deep paths.',
      severity: 'error',
      from: { path: '^(test|stories|scripts|playground|examples|bench|\.storybook)/' },
      to: { path: '^src/', pathNot: ['^src/(react|core|server|mock)/index\\.ts$', '^src/locales/[^/]+/index\\.ts$'] },
    },
    {
      name: 'locales-are-data',
      comment:
        'A locale pack is texts and the plural helper: types only from the React entry, so it ships without React.',
      severity: 'error',
      from: { path: '^src/locales/' },
      to: { pathNot: ['^src/locales/', '^src/react/index\\.ts$'] },
    },
    {
      name: 'locales-take-only-types-from-react',
      severity: 'error',
      from: { path: '^src/locales/' },
      to: { path: '^src/react/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'react-uses-only-the-plural-helper-of-locales',
      comment: 'English is built in; the packs are separate entries an app imports only when it wants them.',
      severity: 'error',
      from: { path: '^src/react/' },
      to: { path: '^src/locales/', pathNot: '^src/locales/plural\\.ts$' },
    },
    {
      name: 'no-cycles',
      comment: 'An import cycle hides which module owns what; split the shared part out.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};
