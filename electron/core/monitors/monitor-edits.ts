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
}

function assertions(text: string | undefined): unknown {
  if (!text?.trim()) return undefined;
  try {
    const value: unknown = parse(text);
    return Array.isArray(value) ? value : [value];
  } catch (error) {
    throw new CoreError(
      'BAD_INPUT',
      `The assertions are not valid YAML: ${(error as Error).message.split('\n')[0]}`,
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
              ...(assertions(s.assertYaml) ? { assert: assertions(s.assertYaml) as never } : {}),
            }),
      }
    : undefined;
  return {
    name: form.name,
    // By name: the file stays readable, and the headless monitor on a copy of this folder finds it.
    profile: profile.name,
    ...(form.healthEveryS !== undefined ? { health: { every: form.healthEveryS * 1000 } } : {}),
    ...(synthetic ? { synthetic } : {}),
    notify: { desktop: form.desktop ?? true, muted: form.muted ?? false, webhooks: kept },
  };
}
