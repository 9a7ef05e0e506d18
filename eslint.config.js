import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layering of docs/architecture.md ("Layers"), enforced: each entry names the files of a layer and
 * what they may not import. Relative paths are matched by regex (a package reached through `../`).
 */
const see = ' (docs/architecture.md "Layers")';
const layer = (files, patterns, opts = {}) => ({
  files,
  rules: { [opts.allowTypeImports ? '@typescript-eslint/no-restricted-imports' : 'no-restricted-imports']: ['error', { patterns: patterns.map((p) => ({ ...p, ...(opts.allowTypeImports ? { allowTypeImports: true } : {}), message: p.message + see })) }] },
});
const routeNoStore = { regex: '(^|/)store/', message: 'routes call one domain command; they never import store/' };
const serverPackage = { group: ['netloom', 'netloom/*'], message: 'the server is not a library' };
const outOfPackage = (names, message) => ({ regex: `^(\\.\\./)+(${names.join('|')})(/|$)`, message });
/** What the web app never imports: it talks to the server over HTTP, its wire types come from the contract. */
const webOutside = [
  serverPackage,
  { group: ['@netloom/server', '@netloom/server/*', '@netloom/engine', '@netloom/engine/*'], message: 'the web app talks to the server over HTTP only; wire types come from @netloom/protocol/http' },
  outOfPackage(['server', 'engine'], 'the web app talks to the server over HTTP only'),
  { regex: '(^|/)packages/(server|engine)(/|$)', message: 'the web app talks to the server over HTTP only' },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'data/**', '**/dist/**', 'packages/*/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },

  // engine ↛ server: the engine is used by the server (and the CLI), never the other way round.
  layer(['packages/engine/**/*.ts'], [serverPackage, outOfPackage(['server', 'web', 'viewer', 'embed'], 'the engine imports no other package of ours')]),
  // protocol: the bottom of the SDK ⇄ viewer ⇄ server contract; imports nothing of ours.
  layer(['packages/protocol/src/**/*.ts'], [serverPackage, { group: ['@netloom/*'], message: '@netloom/protocol imports no other package of ours' }, outOfPackage(['server', 'engine', 'web', 'viewer', 'embed'], '@netloom/protocol imports no other package of ours')]),
  // protocol's main entry (what the viewer and the SDK bundle) never reaches the HTTP contract and its TypeBox.
  layer(['packages/protocol/src/*.ts'], [serverPackage, { group: ['@netloom/*'], message: '@netloom/protocol imports no other package of ours' }, { regex: '^\\./http(/|$)', message: "the main entry of @netloom/protocol does not import the HTTP contract (entry 'http'): it would pull TypeBox into the viewer" }, { group: ['typebox', 'typebox/*'], message: "TypeBox belongs to the HTTP contract (src/http/), not to the viewer's protocol" }, outOfPackage(['server', 'engine', 'web', 'viewer', 'embed'], '@netloom/protocol imports no other package of ours')]),
  // viewer and SDK → @netloom/protocol only (they run in browsers; the server's shapes reach them through the protocol).
  layer(['packages/viewer/src/**/*.ts', 'packages/embed/src/**/*.ts'], [
    serverPackage,
    { group: ['@netloom/engine', '@netloom/engine/*', '@netloom/web', '@netloom/web/*'], message: 'the viewer and the SDK import only @netloom/protocol of our packages' },
    outOfPackage(['server', 'engine', 'web'], 'the viewer and the SDK import only @netloom/protocol of our packages'),
  ]),
  // ... and of the HTTP contract only its types (`import type`): its TypeBox schemas stay out of the iframe (test/bundle.test.ts).
  {
    files: ['packages/viewer/src/**/*.ts', 'packages/embed/src/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['@netloom/protocol/http', '@netloom/protocol/http/*'], allowTypeImports: true, message: 'the HTTP contract (TypeBox) stays out of the viewer and the SDK: import its types only (import type)' + see }] }] },
  },
  // web app ↛ server internals: it talks to the server over HTTP only.
  layer(['packages/web/src/**/*.ts', 'packages/web/src/**/*.tsx'], webOutside),
  // The web app's wire types are the shared contract's (issue 20): api/types.ts (and a feature's own
  // api/types.ts) holds only `Static<>` aliases of @netloom/protocol/http schemas (and types derived from
  // them), never a shape written out by hand.
  {
    files: ['packages/web/src/api/types.ts', 'packages/web/src/features/*/api/types.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSInterfaceDeclaration', message: 'wire types are Static<> of the contract (@netloom/protocol/http), not interfaces written here (docs/architecture.md "Web app")' },
        { selector: 'TSTypeLiteral', message: 'wire types are Static<> of the contract (@netloom/protocol/http), not object types written here (docs/architecture.md "Web app")' },
        { selector: 'TSTypeAliasDeclaration > TSUnionType', message: 'a union of literals is the contract\'s (Static<> of its schema), not written here (docs/architecture.md "Web app")' },
        { selector: "ImportDeclaration[source.value!='@netloom/protocol/http'][source.value!='typebox']", message: 'a types.ts of api/ imports only the contract (@netloom/protocol/http) and typebox\'s Static' },
        { selector: ':matches(VariableDeclaration, FunctionDeclaration, ClassDeclaration, TSEnumDeclaration)', message: 'a types.ts of api/ holds type aliases only' },
      ],
    },
  },
  // Pages and components call hooks (features/*/api/, api/session.ts, api/metrics.ts); only hooks call the client
  // and TanStack Query (docs/architecture.md "Web app").
  {
    files: ['packages/web/src/features/*/pages/**/*.tsx', 'packages/web/src/features/*/components/**/*.tsx', 'packages/web/src/components/**/*.tsx', 'packages/web/src/shell.tsx', 'packages/web/src/routes.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@tanstack/react-query', message: 'pages and components call the hooks of their feature (features/<feature>/api/), not TanStack Query (docs/architecture.md "Web app")' }],
          patterns: [
            { regex: '(^|/)api/client\\.ts$', importNames: ['api', 'request'], message: 'pages and components call hooks; only the hooks in api/ modules call the client (docs/architecture.md "Web app")' },
            ...webOutside.map((p) => ({ ...p, message: p.message + see })),
          ],
        },
      ],
    },
  },
  // The data-access modules (api/ and features/*/api/) type every call with api/types.ts: no interface and no
  // object type literal as the type of an answer (`api.get<{ … }>`).
  {
    files: ['packages/web/src/api/**/*.ts', 'packages/web/src/features/*/api/**/*.ts'],
    ignores: ['packages/web/src/api/client.ts', 'packages/web/src/api/outcomes.ts', 'packages/web/src/api/types.ts', 'packages/web/src/features/*/api/types.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSInterfaceDeclaration', message: 'a wire type is Static<> of the contract, aliased in api/types.ts (docs/architecture.md "Web app")' },
        { selector: "CallExpression[callee.object.name='api'] > TSTypeParameterInstantiation TSTypeLiteral", message: 'type the answer with an alias from api/types.ts (Static<> of the contract), not an object type written here' },
      ],
    },
  },

  // Inside the server: routes → domain → store (docs/architecture.md).
  // A route file declares routes and calls the domain through the app's decorators (plugins/services.ts); it never
  // imports the store or another route file (plugins/routes.ts registers them all).
  layer(['packages/server/src/routes/*.ts'], [routeNoStore, { regex: '^\\./|^\\.\\./routes/', message: 'a route file does not import another route file; shared code goes to http/, presenters/, schemas/ or plugins/' }]),
  layer(['packages/server/src/routes/*/**/*.ts'], [routeNoStore, { regex: '^\\./|^\\.\\./[^.]', message: 'a route file does not import another route file; shared code goes to http/, presenters/, schemas/ or plugins/' }]),
  // ... and gets its caller from one guard, principalOf(request, kind) (plugins/principal.ts), never from the request's fields.
  {
    files: ['packages/server/src/routes/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name=/^(principal|web|viewerSession)$/][object.name='request']", message: 'who is calling comes from principalOf(request, kind) (plugins/principal.ts)' + see }],
    },
  },
  layer(['packages/server/src/http/**/*.ts'], [{ regex: '(^|/)store/', message: 'the HTTP layer reaches the database through domain/' }, { regex: '(^|/)routes/', message: 'the HTTP layer does not import routes' }], { allowTypeImports: true }),
  layer(['packages/server/src/domain/**/*.ts'], [{ regex: '^(\\.\\./)+(http|routes|plugins|presenters|cli)/', message: 'the domain does not import the HTTP layer, routes, plugins, presenters or the CLI' }]),
  layer(['packages/server/src/store/**/*.ts'], [{ regex: '^(\\.\\./)+(domain|http|routes|presenters|schemas|cli)/', message: 'the store imports nothing above it' }]),
);
