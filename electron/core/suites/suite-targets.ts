// What a suite runs against: each of its profiles × each of its agents, unless the caller names
// others (the CLI's --profile and --agent, a monitor's profile and agents); the active profile and
// the service's default agent fill in what neither says.
import type { Profile } from '../profiles';
import type { LoadedSuite } from './suite-loader';
import type { RunTarget } from './suite-runner';

export interface TargetChoice {
  /** A profile by name (undefined: the active one); a suite's `profiles:` are resolved through it. */
  resolveProfile: (name?: string) => Profile;
  profiles?: Profile[] | undefined;
  agents?: string[] | undefined;
}

/** The targets of a suite: given profiles/agents override the suite's own; the defaults fill in. */
export function suiteTargets(suite: LoadedSuite, choice: TargetChoice): RunTarget[] {
  const profiles = choice.profiles?.length
    ? choice.profiles
    : (suite.targets.profiles?.map((name) => choice.resolveProfile(name)) ?? [choice.resolveProfile()]);
  const agents: (string | undefined)[] = choice.agents?.length
    ? choice.agents
    : (suite.targets.agents ?? [undefined]);
  return profiles.flatMap((profile) => agents.map((agent) => ({ profile, agent })));
}
