// Who acts on an incident when a person acknowledges it, posts an update or resolves it: the name
// set in Settings (settings.json `incidentName`), else the OS user's — one rule for the incident
// desk and the Settings screen that shows it.
import { userInfo } from 'node:os';
import type { IncidentName } from '../../../shared/incident';
import type { SettingsStore } from '../settings-store';

export function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry (a container started with an arbitrary uid).
    return 'someone';
  }
}

export function readIncidentName(settings: SettingsStore): IncidentName {
  const name = settings.read().incidentName?.trim();
  return { ...(name ? { name } : {}), osUser: osUserName() };
}

/** Saves the name (on disk before it answers); blank clears it, back to the OS user's. */
export function saveIncidentName(settings: SettingsStore, name: string): IncidentName {
  const trimmed = name.trim();
  settings.update((draft) => {
    if (trimmed) draft.incidentName = trimmed;
    else delete draft.incidentName;
  });
  return readIncidentName(settings);
}
