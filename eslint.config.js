// One flat config. The import rules keep the layering of docs/architecture.md ("Layers and
// imports") from drifting: shared/ is pure TypeScript, the renderer reaches the core only through
// the bridge, the mock imports only shared/, the core imports none of its front ends, the web host
// nothing of the shell, and only the shell imports Electron. scripts/import-graph.mjs checks the
// same arrows over the whole graph, import() calls and cycles included, which these rules do not see.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { regex: '^node:', message: 'This layer runs where Node is not available.' };
const electron = { regex: '^electron(/.*)?$', message: 'Only electron/shell may import Electron.' };
const react = {
  group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
  message: 'React belongs to renderer/.',
};
const layer = (pattern, message) => ({ group: [pattern], message });
/**
 * VS Code's code-layering, keyed on folder names: an import that climbs out (`../`) into one of
 * `folders`, whatever the depth of the importing file. Only names right after the climb count, so
 * electron/core's `../../shared/bridge…` is not electron/bridge.
 */
const climbsInto = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message });
/** The top-level folders that hold code, shared/ aside: a layer that may import only shared/ lists them. */
const CODE_FOLDERS = ['electron', 'renderer', 'mock', 'test', 'bench', 'scripts', 'bin'];
const except = (...allowed) => CODE_FOLDERS.filter((folder) => !allowed.includes(folder));
/** A block's import rule: no import that any of `patterns` matches. */
const forbidImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
/** Plain Node on the main side: no Electron, no React, nothing of the renderer. */
const mainSide = [electron, react, layer('**/renderer/**', 'The main side knows nothing of the UI.')];
const rendererPatterns = [
  nodeBuiltins,
  electron,
  layer('**/mock/**', 'The renderer talks to the core only through the bridge.'),
  layer('**/electron/**', 'The renderer talks to the core only through the bridge.'),
];
// Relative imports within renderer/ (shared/bridge.ts, the contract, is not renderer/bridge/).
const rendererFolders = (folders, message) => ({
  regex: `^(\\.{1,2}/)+(${folders.join('|')})(/.*)?$`,
  message,
});
const rendererBridge = rendererFolders(
  ['bridge'],
  "Only renderer/data/ calls the bridge: add the call, with its query or mutation, to its domain's module there.",
);
// GitHub Desktop's rule: raw IPC only inside the typed, sender-checking wrappers.
const rawIpc = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer', 'contextBridge', 'default'],
  message:
    'Use the bridge: ipcMain lives in electron/shell/ipc.ts, ipcRenderer and contextBridge in electron/shell/preload.ts.',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'test-results/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (CONTRIBUTING.md, "Style").' },
      ],
    },
  },
  {
    files: ['*.config.ts', '*.config.js', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['shared/**'],
    rules: forbidImports(
      nodeBuiltins,
      electron,
      react,
      climbsInto(except(), 'shared/ stands alone: pure TypeScript that every layer may import.'),
    ),
  },
  // The renderer's own layers (docs/architecture.md, "The renderer"): renderer/data/ is the one
  // module that calls the bridge and knows nothing of the UI; renderer/components/ are pieces that
  // take their data through props. Each block repeats the renderer's patterns: a later block's
  // options replace an earlier one's for the same rule.
  {
    files: ['renderer/**'],
    ignores: ['renderer/data/**', 'renderer/bridge/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...rendererPatterns, rendererBridge] }] },
  },
  {
    files: ['renderer/data/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rendererPatterns,
            rendererFolders(
              ['components', 'stores', 'screens', 'shell', 'browsers'],
              'renderer/data/ knows nothing of the UI: a store or a screen calls data/, never the reverse.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/bridge/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: rendererPatterns }] },
  },
  {
    files: ['renderer/components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rendererPatterns,
            rendererBridge,
            rendererFolders(
              ['stores', 'data', 'screens', 'shell', 'browsers'],
              'renderer/components/ take their data through props: a piece that reads data or a store belongs in renderer/shell/, renderer/browsers/ or its screen.',
            ),
          ],
        },
      ],
    },
  },
  {
    // Only the shell imports Electron: the bridge host, web host, CLI and MCP server are plain Node.
    files: ['electron/bridge/**', 'electron/web-host/**', 'electron/cli/**', 'electron/mcp/**'],
    rules: forbidImports(...mainSide),
  },
  {
    files: ['electron/web-host/**'],
    rules: forbidImports(
      ...mainSide,
      climbsInto(
        ['shell', 'electron/shell'],
        "The web host serves the page without Electron: what it shares with the shell goes in shared/ or electron/core/ (the page's headers: shared/page-policy.ts).",
      ),
    ),
  },
  {
    files: ['electron/shell/**'],
    ignores: ['electron/shell/ipc.ts', 'electron/shell/preload.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [rawIpc] }] },
  },
  {
    // What ships imports undici's parts through http-agent.ts: its index evaluates all of undici.
    files: ['electron/**', 'mock/**', 'shared/**'],
    ignores: ['electron/core/http-agent.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'undici',
              message:
                "Import from electron/core/http-agent.ts: undici's index loads fetch, WebSocket and the rest at every start.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/core/**'],
    rules: forbidImports(
      electron,
      react,
      layer('**/renderer/**', 'The core knows nothing of the UI.'),
      climbsInto(
        ['shell', 'bridge', 'cli', 'mcp', 'web-host', 'launch'].flatMap((front) => [
          front,
          `electron/${front}`,
        ]),
        'The core serves every front end and imports none of them: they import it, and hand it what it needs.',
      ),
    ),
  },
  {
    // Mockoon's server engine: the mock is started by the app, the CLI, the web host and the tests,
    // and knows none of them; its host hands it what it needs (its folder, its folder's lock).
    files: ['mock/**'],
    rules: forbidImports(
      electron,
      react,
      climbsInto(
        except('mock'),
        'The mock imports only shared/: its host hands it what it needs (startMockServer options).',
      ),
    ),
  },
);
