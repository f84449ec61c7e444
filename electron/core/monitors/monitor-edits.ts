// A monitor as the app's form describes it (profile id, seconds and minutes, assertions as YAML
// text), turned into the monitors file's shape. The checks are the file's own (monitor-config.ts),
// so what the form saves is what `agent-console monitor` reads.
import { parse } from 'yaml';
import { CoreError } from '../core-error';
import type { ProfileStore } from '../profile-store';
import type { MonitorConfig, MonitorInput } from './monitor-config';

export interface MonitorForm {
  name: string;
  profileId: string;
  healthEveryS?: number | undefined;
  synthetic?:
    | {
        everyMinutes: number;
        agents: string[];
        message?: string | undefined;
        stream?: boolean | undefined;
        assertYaml?: string | undefined;
        suite?: string | undefined;
        cases?: string[] | undefined;
      }
    | undefined;
  desktop?: boolean | undefined;
  muted?: boolean | undefined;
  public?: boolean | undefined;
  /** The maintenance windows as YAML, a list as in the monitors file. */
  maintenanceYaml?: string | undefined;
}

/** A YAML list the form holds as text (one entry alone is a list of one); none when blank. */
function yamlList(text: string | undefined, what: string): unknown[] | undefined {
  if (!text?.trim()) return undefined;
  try {
    const value: unknown = parse(text);
    return Array.isArray(value) ? value : [value];
  } catch (error) {
    throw new CoreError(
      'BAD_INPUT',
      `The ${what} are not valid YAML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

export function monitorFromForm(
  form: MonitorForm,
  profiles: ProfileStore,
  kept: MonitorConfig['notify']['webhooks'] = [],
): MonitorInput {
  const profile = profiles.get(form.profileId);
  if (!profile) throw new CoreError('PROFILE_NOT_FOUND', 'That profile no longer exists.');
  const s = form.synthetic;
  const synthetic = s
    ? {
        every: s.everyMinutes * 60_000,
        ...(s.agents.length > 0 ? { agents: s.agents } : {}),
        ...(s.suite?.trim()
          ? { suite: s.suite.trim(), ...(s.cases?.length ? { cases: s.cases } : {}) }
          : {
              message: s.message ?? '',
              stream: s.stream ?? true,
              ...(yamlList(s.assertYaml, 'assertions')
                ? { assert: yamlList(s.assertYaml, 'assertions') as never }
                : {}),
            }),
      }
    : undefined;
  return {
    name: form.name,
    // By name: the file stays readable, and the headless monitor on a copy of this folder finds it.
    profile: profile.name,
    ...(form.healthEveryS !== undefined ? { health: { every: form.healthEveryS * 1000 } } : {}),
    ...(synthetic ? { synthetic } : {}),
    ...(form.public !== undefined ? { public: form.public } : {}),
    maintenance: (yamlList(form.maintenanceYaml, 'maintenance windows') ?? []) as never,
    notify: { desktop: form.desktop ?? true, muted: form.muted ?? false, webhooks: kept },
  };
}
