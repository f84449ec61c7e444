// The monitors file (YAML): what to watch, how often, and whom to tell. The app keeps its monitors
// in <data dir>/monitors.yaml, and `agent-console monitor --config FILE` reads the same format, so
// a team can take the app's monitors to a server as they are. Problems are reported with file,
// line and field (yaml-file.ts). Secrets are never in it: an API key comes from the keychain (a
// profile) or an environment variable; a channel's credentials (channels/channel-config.ts) from
// an environment variable or, for the app, the keychain.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { SuiteAssertion } from '../../../shared/suite';
import { MAX_HEALTH_INTERVAL_MS, MIN_HEALTH_INTERVAL_MS } from '../../../shared/health';
import { holdsApiKey } from '../suites/suite-env';
import type { FileProblem } from '../../../shared/suite-run';
import { parseYamlFile, YamlFileError, type PathProblem } from '../yaml-file';
import { EVERY, knownZone } from './maintenance';
import { Channel, channelSecrets, ENV_NAME } from './channels/channel-config';

export const MONITORS_FILE = 'monitors.yaml';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "90s", "5m", "1h" or a number of milliseconds. */
const Duration = z
  .union([z.int().positive(), z.string().regex(/^\d+(ms|s|m|h)$/, 'Write a duration such as 30s, 5m or 1h.')])
  .transform((value) => {
    if (typeof value === 'number') return value;
    const [, amount, unit] = /^(\d+)(ms|s|m|h)$/.exec(value) as RegExpExecArray;
    return Number(amount) * (UNITS[unit as string] as number);
  });

const between = (min: number, max: number, what: string) =>
  Duration.refine((ms) => ms >= min && ms <= max, {
    message: `${what} must be from ${min / 1000} s to ${max / 3_600_000} h.`,
  });

const MIN_SYNTHETIC_EVERY_MS = 60_000;
const MAX_SYNTHETIC_EVERY_MS = 24 * 3_600_000;

const Synthetic = z
  .strictObject({
    every: between(MIN_SYNTHETIC_EVERY_MS, MAX_SYNTHETIC_EVERY_MS, 'A synthetic check interval'),
    agents: z.array(z.string().min(1)).min(1).optional(),
    /** A suite file (relative to this file) and, optionally, which of its cases. */
    suite: z.string().min(1).optional(),
    cases: z.array(z.string().min(1)).min(1).optional(),
    /** Or one message with its assertions. */
    message: z.string().min(1).max(100_000).optional(),
    stream: z.boolean().default(true),
    assert: z.array(SuiteAssertion).optional(),
  })
  .refine((s) => (s.suite === undefined) !== (s.message === undefined), {
    message: 'A synthetic check names a suite file (suite:) or one message (message:), not both.',
  })
  .refine((s) => s.message !== undefined || (s.assert === undefined && s.stream === true), {
    message: 'assert and stream go with message; a suite file has its own.',
  });

/** Runs (and polls) a budget's p95 is taken over when the file does not say. */
const DEFAULT_BUDGET_WINDOW = 10;

const Budgets = z
  .strictObject({
    'ttft-p95': Duration.optional(),
    'total-p95': Duration.optional(),
    'health-response': Duration.optional(),
    window: z.int().min(1).max(1000).default(DEFAULT_BUDGET_WINDOW),
  })
  .refine((b) => (b['ttft-p95'] ?? b['total-p95'] ?? b['health-response']) !== undefined, {
    message: 'Name at least one budget: ttft-p95, total-p95 or health-response.',
  });

const MaintenanceWindow = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    /** Repeating: when it begins on the wall clock of `tz`, and for how long. */
    every: z
      .string()
      .regex(EVERY, 'Write when it begins as "sun 02:00" (a day mon … sun, or daily, then a 24-hour time).')
      .optional(),
    for: between(60_000, 24 * 3_600_000, 'A maintenance window').optional(),
    tz: z
      .string()
      .refine(knownZone, 'An IANA time zone such as Europe/Berlin (UTC when left out).')
      .optional(),
    /** One-off: two instants with their offset (2026-11-30T02:00:00Z). */
    from: z.iso
      .datetime({ offset: true, message: 'An ISO date-time with its offset, e.g. 2026-11-30T02:00:00Z.' })
      .optional(),
    to: z.iso
      .datetime({ offset: true, message: 'An ISO date-time with its offset, e.g. 2026-11-30T04:00:00Z.' })
      .optional(),
  })
  .refine(
    (w) =>
      w.every !== undefined && w.for !== undefined
        ? w.from === undefined && w.to === undefined
        : w.from !== undefined &&
          w.to !== undefined &&
          w.every === undefined &&
          w.for === undefined &&
          w.tz === undefined,
    {
      message:
        'A maintenance window repeats (every: and for:, tz: optional) or is one range (from: and to:).',
    },
  )
  .refine((w) => w.from === undefined || w.to === undefined || Date.parse(w.to) > Date.parse(w.from), {
    message: 'A maintenance window ends (to:) after it begins (from:).',
  });

/** A target: availability in percent (99.9% or 99.9), and optionally a TTFT p95 over the period. */
const Slo = z.strictObject({
  availability: z
    .union([z.number(), z.string().regex(/^\d+(\.\d+)?%$/, 'Write a percentage such as 99.9%.')])
    .transform((v) => (typeof v === 'number' ? v : Number.parseFloat(v)))
    .refine(
      (v) => v > 0 && v < 100,
      'An availability target is a percentage above 0 and under 100, e.g. 99.9%.',
    ),
  'ttft-p95': Duration.optional(),
});

/**
 * On the status page (README "Status page"): `true` shows the monitor's name, status, days and
 * incidents in words only; `{ show-errors: true }` adds what failed and the monitor's own notes.
 */
const Public = z.union(
  [z.boolean(), z.strictObject({ 'show-errors': z.boolean() })],
  'Write public: true (names and words only), or public: { show-errors: true } to show what failed too.',
);

const Service = z.strictObject({
  baseUrl: z.string().min(1),
  ca: z.string().min(1).optional(),
  /** The environment variable holding the API key (never the key itself). */
  keyEnv: z.string().regex(ENV_NAME).default('AGENT_API_KEY'),
});

const Monitor = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, 'An id is lower-case letters, digits and -.')
      .optional(),
    name: z.string().trim().min(1).max(100),
    /** A profile of this data folder: its service, CA, and key from the keychain. */
    profile: z.string().min(1).optional(),
    /** Or a service given here, its key from an environment variable (headless). */
    service: Service.optional(),
    health: z
      .strictObject({
        every: between(MIN_HEALTH_INTERVAL_MS, MAX_HEALTH_INTERVAL_MS, 'The health poll interval').default(
          60_000,
        ),
      })
      .default({ every: 60_000 }),
    synthetic: Synthetic.optional(),
    budgets: Budgets.optional(),
    slo: Slo.optional(),
    public: Public.optional(),
    maintenance: z.array(MaintenanceWindow).max(50).optional(),
    notify: z
      .strictObject({
        desktop: z.boolean().default(true),
        muted: z.boolean().default(false),
        /** The channels (README, "Channels"): webhooks, Teams, Discord, PagerDuty, email. */
        webhooks: z.array(Channel).max(20).default([]),
        /** An open incident nobody acknowledged is told again every `after`, to these webhooks (all by default). */
        escalate: z
          .strictObject({
            after: between(60_000, 24 * 3_600_000, 'An escalation time'),
            to: z
              .array(z.string().regex(/^[a-z0-9-]{1,80}$/))
              .min(1)
              .optional(),
          })
          .optional(),
      })
      .default({ desktop: true, muted: false, webhooks: [] }),
  })
  .refine((m) => (m.profile === undefined) !== (m.service === undefined), {
    message: 'A monitor watches a profile (profile:) or a service given here (service:), one of them.',
  })
  .refine((m) => m.synthetic || (!m.budgets?.['ttft-p95'] && !m.budgets?.['total-p95']), {
    message: 'ttft-p95 and total-p95 budgets judge a synthetic check: add one (synthetic:).',
  })
  .refine(
    (m) => (m.notify.escalate?.to ?? []).every((id) => m.notify.webhooks.some((hook) => hook.id === id)),
    { message: 'escalate.to names webhooks by their id: give each of them an id: under webhooks.' },
  );

const MonitorsFile = z.strictObject({ monitors: z.array(Monitor) });

export type MonitorConfig = z.output<typeof Monitor>;
export type SyntheticConfig = z.output<typeof Synthetic>;
/** What a monitor is given before defaults apply (what the app and tests write). */
export type MonitorInput = z.input<typeof Monitor>;

/** Whether the status page shows the monitor, and with what failed (README "Status page"). */
export function publicOf(config: Pick<MonitorConfig, 'public'>): { showErrors: boolean } | undefined {
  const value = config.public;
  if (value === undefined || value === false) return undefined;
  return { showErrors: value !== true && value['show-errors'] };
}

export class MonitorFileError extends YamlFileError {
  override readonly name = 'MonitorFileError';
}

const SECRET_WORDS: Record<string, string> = {
  url: 'a webhook URL',
  routingKey: 'a PagerDuty routing key',
  password: 'an SMTP password',
};

const ENV_REFERENCE = /\{\{\s*env\.([A-Za-z0-9_.-]+)\s*\}\}/g;

/**
 * What a monitors file may not say about the environment. It may come from a pull request like a
 * suite file: a synthetic message has no `env:` list to declare a variable in, so it reads none
 * (a suite file can), and the variable that holds a monitor's key is that key, never a webhook URL
 * a notification would be posted to, nor text sent in a message.
 */
function envProblems(monitors: readonly MonitorConfig[]): PathProblem[] {
  const problems: PathProblem[] = [];
  monitors.forEach((m, i) => {
    const keyEnv = { keyEnv: m.service?.keyEnv };
    const textProblem = (text: string, path: PropertyKey[], key: string): void => {
      for (const [whole, name] of text.matchAll(ENV_REFERENCE)) {
        const message = holdsApiKey(name as string, keyEnv)
          ? `${name} holds the API key: a monitors file cannot read it.`
          : `A synthetic message cannot read the environment (${whole}): write the check as a suite file that lists ${name} under env:.`;
        problems.push({ path, key, message });
      }
    };
    const synthetic = m.synthetic;
    if (synthetic?.message !== undefined) {
      textProblem(synthetic.message, ['monitors', i, 'synthetic'], 'message');
    }
    synthetic?.assert?.forEach((entry, a) => {
      for (const [kind, value] of Object.entries(entry)) {
        const texts =
          typeof value === 'string'
            ? [value]
            : kind === 'regex' && value
              ? [(value as { pattern: string }).pattern]
              : [];
        for (const text of texts) textProblem(text, ['monitors', i, 'synthetic', 'assert', a], kind);
      }
    });
    m.notify.webhooks.forEach((channel, w) => {
      for (const { field, source } of channelSecrets(channel)) {
        if ('env' in source && holdsApiKey(source.env, keyEnv)) {
          problems.push({
            path: ['monitors', i, 'notify', 'webhooks', w],
            key: field,
            message: `${source.env} holds the API key: it cannot be ${SECRET_WORDS[field]}.`,
          });
        }
      }
    });
  });
  return problems;
}

/** Checks monitors given as data (the app's edits) with the file's rules; names the field. */
export function checkMonitors(input: unknown, where = 'monitors'): MonitorConfig[] {
  const parsed = MonitorsFile.safeParse({ monitors: input });
  if (parsed.success) {
    const problem = envProblems(parsed.data.monitors)[0];
    if (problem) {
      const field = [...problem.path.slice(2), ...(problem.key ? [problem.key] : [])].join('.');
      throw new MonitorFileError(where, [{ field, message: problem.message }]);
    }
    return withIds(parsed.data.monitors, where);
  }
  const issue = parsed.error.issues[0];
  const field = issue?.path.slice(1).join('.') ?? '';
  throw new MonitorFileError(where, [
    { ...(field ? { field } : {}), message: issue?.message ?? 'Not valid.' },
  ]);
}

/** Parses the text of a monitors file; `file` names it in messages and anchors relative paths. */
export function parseMonitorsFile(text: string, file: string): MonitorConfig[] {
  const parsed = parseYamlFile(text, file, MonitorsFile, {
    empty: 'The file is empty: write `monitors:` and a list of monitors.',
    makeError: (f, problems) => new MonitorFileError(f, problems),
  });
  const near = (path: string): string => (isAbsolute(path) ? path : resolve(dirname(file), path));
  const monitors = parsed.value.monitors.map((m) => ({
    ...m,
    ...(m.synthetic?.suite ? { synthetic: { ...m.synthetic, suite: near(m.synthetic.suite) } } : {}),
    notify: {
      ...m.notify,
      webhooks: m.notify.webhooks.map((c) => (c.kind === 'email' && c.ca ? { ...c, ca: near(c.ca) } : c)),
    },
  }));
  const problems: FileProblem[] = envProblems(monitors).map(parsed.at);
  const names = new Set<string>();
  monitors.forEach((m, i) => {
    const name = m.name.toLowerCase();
    if (names.has(name)) {
      problems.push(
        parsed.at({ path: ['monitors', i], key: 'name', message: `A second monitor named "${m.name}".` }),
      );
    }
    names.add(name);
  });
  if (problems.length > 0) throw new MonitorFileError(file, problems);
  return withIds(monitors, file);
}

export async function loadMonitorsFile(file: string): Promise<MonitorConfig[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new MonitorFileError(file, [
      { message: `Cannot read the file (${(error as NodeJS.ErrnoException).code ?? error}).` },
    ]);
  }
  return parseMonitorsFile(text, file);
}

/** The file's text for these monitors (what the app writes; defaults left out where they are defaults). */
export function monitorsFileText(monitors: readonly MonitorConfig[]): string {
  const plain = monitors.map((m) => ({
    id: m.id,
    name: m.name,
    ...(m.profile !== undefined ? { profile: m.profile } : {}),
    ...(m.service !== undefined ? { service: m.service } : {}),
    health: { every: `${Math.round(m.health.every / 1000)}s` },
    ...(m.synthetic
      ? { synthetic: { ...m.synthetic, every: `${Math.round(m.synthetic.every / 60_000)}m` } }
      : {}),
    ...(m.budgets ? { budgets: budgetsText(m.budgets) } : {}),
    ...(m.slo
      ? {
          slo: {
            availability: `${m.slo.availability}%`,
            ...(m.slo['ttft-p95'] !== undefined ? { 'ttft-p95': durationText(m.slo['ttft-p95']) } : {}),
          },
        }
      : {}),
    ...(m.public !== undefined && m.public !== false ? { public: m.public } : {}),
    ...(m.maintenance?.length ? { maintenance: maintenanceText(m.maintenance) } : {}),
    notify: m.notify.escalate
      ? { ...m.notify, escalate: { ...m.notify.escalate, after: durationText(m.notify.escalate.after) } }
      : m.notify,
  }));
  return `# Agent Console monitors: what to watch, how often, whom to tell (README: "Monitors").\n${stringify({ monitors: plain })}`;
}

/** The windows in the file's words (what the app's form shows and writes back). */
export function maintenanceText(
  windows: NonNullable<MonitorConfig['maintenance']>,
): Record<string, string>[] {
  return windows.map((w) => {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(w)) {
      if (value !== undefined) out[key] = key === 'for' ? durationText(value as number) : String(value);
    }
    return out;
  });
}

function budgetsText(budgets: NonNullable<MonitorConfig['budgets']>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(budgets)) {
    if (value !== undefined) out[name] = name === 'window' ? value : durationText(value);
  }
  return out;
}

/** A duration in the file's words: the largest unit that divides it. */
function durationText(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** Every monitor gets a stable id: the one written, else one made from its name. */
function withIds(monitors: MonitorConfig[], where: string): MonitorConfig[] {
  const used = new Set<string>();
  return monitors.map((m) => {
    let id = m.id ?? slug(m.name);
    if (used.has(id)) {
      if (m.id)
        throw new MonitorFileError(where, [{ field: 'id', message: `Two monitors have the id "${id}".` }]);
      let n = 2;
      while (used.has(`${id}-${n}`)) n++;
      id = `${id}-${n}`;
    }
    used.add(id);
    return { ...m, id };
  });
}

function slug(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48);
  return base || 'monitor';
}
