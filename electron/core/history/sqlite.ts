// node:sqlite, loaded without its "experimental" warning. The warning is printed once, on load, to
// every front end's stderr (a CLI user's terminal, the app log): it says nothing a user can act on,
// so exactly that one warning is dropped while the module loads and every other warning passes.
import type * as Sqlite from 'node:sqlite';

let loaded: typeof Sqlite | undefined;

function isSqliteWarning(warning: string | Error, rest: unknown[]): boolean {
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
  const text = typeof warning === 'string' ? warning : warning.message;
  return (type ?? (warning as Error).name) === 'ExperimentalWarning' && /\bSQLite\b/.test(text);
}

/** The node:sqlite module, loaded once. */
export function sqlite(): typeof Sqlite {
  if (loaded) return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteWarning(warning, rest)) return;
    (emitWarning as (w: string | Error, ...r: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // Loaded by name at run time, so no bundler needs to know the module.
    loaded = process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded;
}
