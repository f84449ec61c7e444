// Where the console keeps its settings and data, per OS convention (documented in the README).
import { homedir } from 'node:os';
import { join } from 'node:path';

/** AGENT_CONSOLE_DATA_DIR wins (tests give each run its own); otherwise the OS's usual place. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.AGENT_CONSOLE_DATA_DIR) return env.AGENT_CONSOLE_DATA_DIR;
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Agent Console');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Agent Console');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'agent-console');
}

/** The app's own mock's folder in a data dir: `npm run mock`, the embedded mock and `agent-console mock` share it. */
export function mockDataDir(dataDir: string): string {
  return join(dataDir, 'mock');
}

/**
 * The keychain service name AGENT_CONSOLE_KEYCHAIN_SERVICE asks for, as every front end opens the
 * core with it: tests (and anyone keeping several setups apart) use a service of their own.
 */
export function keychainServiceFromEnvironment(): { keychainService?: string } {
  const name = process.env.AGENT_CONSOLE_KEYCHAIN_SERVICE;
  return name ? { keychainService: name } : {};
}
