// `npm test`'s import-graph check: the project's imports (tsconfig.json's files, resolved as tsc
// resolves them) against the arrows of docs/architecture.md, "Layers and imports". Prints one count
// per rule and the cycles, and fails when any is not zero. ESLint checks the same arrows file by
// file (eslint.config.js); this sees the whole graph, so it also finds cycles, which no per-file
// rule can.
//
// Every import counts, `import type`, `export … from` and `import()` alike: a type from another
// layer is knowledge of it all the same, and two modules that need each other's types cannot be
// read, tested or moved apart either, though erased types give their cycle no load order to break.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

const RULES = [
  {
    name: 'mock/ → outside mock/ and shared/',
    from: (file) => file.startsWith('mock/'),
    to: (file) => !file.startsWith('mock/') && !file.startsWith('shared/'),
  },
  {
    name: 'electron/web-host → electron/shell',
    from: (file) => file.startsWith('electron/web-host/'),
    to: (file) => file.startsWith('electron/shell/'),
  },
  {
    name: 'electron/core → electron/shell, bridge, cli, mcp, web-host, launch',
    from: (file) => file.startsWith('electron/core/'),
    to: (file) => /^electron\/(shell|bridge|cli|mcp|web-host|launch)\//.test(file),
  },
  {
    name: 'shared/ → outside shared/',
    from: (file) => file.startsWith('shared/'),
    to: (file) => !file.startsWith('shared/'),
  },
];

function projectFiles() {
  const configPath = resolve(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath);
}

/** Every module a file names: static imports and re-exports, `import()` calls and `import('…').T` types. */
function specifiersOf(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) found.push(first.text);
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      if (literal && ts.isStringLiteral(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The project's own import edges (files relative to the root); packages are left out. */
function importEdges({ fileNames, options }) {
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const edges = [];
  for (const path of fileNames) {
    const from = relative(root, path);
    for (const spec of specifiersOf(path)) {
      const resolved = ts.resolveModuleName(spec, path, options, ts.sys, cache).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const to = relative(root, resolved.resolvedFileName);
      if (to.startsWith('..') || to.includes('node_modules/')) continue;
      edges.push({ from, to });
    }
  }
  return edges;
}

/** Tarjan's strongly connected components with more than one file: each is an import cycle. */
function cycles(edges) {
  const next = new Map();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from).add(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const connect = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file), index.get(to)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) components.push(component.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) connect(file);
  return components;
}

const project = projectFiles();
const edges = importEdges(project);
let problems = 0;
console.log(`import graph: ${project.fileNames.length} files, ${edges.length} imports`);
for (const rule of RULES) {
  const crossing = edges.filter(({ from, to }) => rule.from(from) && rule.to(to));
  problems += crossing.length;
  console.log(`${crossing.length}  ${rule.name}`);
  for (const { from, to } of crossing) console.log(`     ${from} → ${to}`);
}
const found = cycles(edges);
problems += found.length;
console.log(`${found.length}  cycles`);
for (const component of found) console.log(`     ${component.join(' ⇄ ')}`);
process.exit(problems > 0 ? 1 : 0);
