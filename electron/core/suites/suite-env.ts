// The environment a suite file may read. A suite file is reviewed like code but may come from a
// pull request, and whatever it reads goes to the service in a message and into reports. So it
// reads only the variables it lists under `env:` (a reviewer sees them at the top of the file),
// never the one that holds the API key, and each value it reads becomes a secret of this process:
// masked in every output from the moment the file loads (docs/security.md, "Suite and monitors
// files").
import { containsKeyShaped } from '../../../shared/key-shape';
import { MIN_REMEMBERED_SECRET_LENGTH, rememberSecret } from '../redact';
import type { PathProblem } from '../yaml-file';

/** The variable `agent-console test --base-url` and a monitor's `service:` take the key from by default. */
const API_KEY_VARIABLE = 'AGENT_API_KEY';

export interface SuiteEnvOptions {
  /** Another variable that holds a key here (a monitor's `service.keyEnv`): refused like AGENT_API_KEY. */
  keyEnv?: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether `name` is a variable that holds the API key. Compared without regard to case: on
 * Windows `agent_api_key` reads the same variable as `AGENT_API_KEY`.
 */
export function holdsApiKey(name: string, options: SuiteEnvOptions = {}): boolean {
  const upper = name.toUpperCase();
  return (
    upper === API_KEY_VARIABLE || (options.keyEnv !== undefined && upper === options.keyEnv.toUpperCase())
  );
}

const keyVariableWords = (name: string): string => `${name} holds the API key: a suite file cannot read it.`;

const keyShapedWords = (name: string): string =>
  `${name} holds an API key (its value is key-shaped): a suite file cannot read it.`;

/** What `{{env.NAME}}` gives: the value, why it may not be read, or undefined when it is not set. */
export type EnvRead = { value: string } | { refused: string } | undefined;

export interface SuiteEnv {
  read(name: string): EnvRead;
  /** The problems of the `env:` list itself, at their entries. */
  problems: PathProblem[];
}

/** The variables a suite declared, as its cases may read them. */
export function suiteEnv(
  declared: readonly string[] | undefined,
  env: Env,
  options: SuiteEnvOptions = {},
): SuiteEnv {
  const listed = new Set(declared ?? []);
  const problems: PathProblem[] = [];
  for (const [i, name] of (declared ?? []).entries()) {
    const value = env[name];
    if (holdsApiKey(name, options)) problems.push({ path: ['env', i], message: keyVariableWords(name) });
    else if (value !== undefined && containsKeyShaped(value))
      problems.push({ path: ['env', i], message: keyShapedWords(name) });
  }
  return {
    problems,
    read(name) {
      if (holdsApiKey(name, options)) return { refused: keyVariableWords(name) };
      if (!listed.has(name)) {
        return {
          refused: `{{env.${name}}} reads an environment variable the suite does not declare: list it under \`env:\` at the top of the file (env: [${name}]).`,
        };
      }
      const value = env[name];
      if (value === undefined) return undefined;
      // Said at the declaration; here it only stays unread.
      if (containsKeyShaped(value)) return { refused: keyShapedWords(name) };
      return { value };
    },
  };
}

/**
 * Every declared value that is set becomes a secret of this process (redact.ts), so it is masked
 * in the CLI's output, reports, the bridge and files. Returns a line for each value too short to
 * mask, which the front ends show: the user should know that one is not hidden.
 */
export function rememberDeclared(
  declared: readonly string[] | undefined,
  env: Env,
  options: SuiteEnvOptions = {},
): string[] {
  const warnings: string[] = [];
  for (const name of new Set(declared ?? [])) {
    const value = env[name];
    if (value === undefined || value === '' || holdsApiKey(name, options)) continue;
    if (!rememberSecret(value)) {
      warnings.push(
        `${name} is shorter than ${MIN_REMEMBERED_SECRET_LENGTH} characters, so it is not masked in output.`,
      );
    }
  }
  return warnings;
}
