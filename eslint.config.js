// One flat config. The import rules keep the layering of docs/architecture.md from drifting:
// shared/ is pure TypeScript, the renderer reaches the core only through the bridge, the core and
// the mock never import Electron, and only the shell does.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { regex: '^node:', message: 'This layer runs where Node is not available.' };
const electron = { regex: '^electron(/.*)?$', message: 'Only electron/shell may import Electron.' };
const react = {
  group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
  message: 'React belongs to renderer/.',
};
const layer = (pattern, message) => ({ group: [pattern], message });
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
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (STYLE.md).' },
      ],
    },
  },
  {
    files: ['*.config.ts', '*.config.js', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            nodeBuiltins,
            electron,
            react,
            layer('**/mock/**', 'shared/ stands alone.'),
            layer('**/electron/**', 'shared/ stands alone.'),
            layer('**/renderer/**', 'shared/ stands alone.'),
          ],
        },
      ],
    },
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
    // Only the shell imports Electron: the bridge host, web host and CLI are plain Node.
    files: ['electron/bridge/**', 'electron/web-host/**', 'electron/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [electron, react, layer('**/renderer/**', 'The main side knows nothing of the UI.')] },
      ],
    },
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
                "Import from electron/core/http-agent.ts: undici's index loads fetch, WebSocket and the rest at every start (issue 18).",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['mock/**', 'electron/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            electron,
            react,
            layer('**/renderer/**', 'The core and the mock know nothing of the UI.'),
          ],
        },
      ],
    },
  },
);
