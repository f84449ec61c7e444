// The metric and alert names the shipped deployment files use (deploy/), for the tests that hold
// them to what the headless monitor really serves.
import { parse } from 'yaml';

interface RuleFile {
  groups: { name: string; rules: { alert?: string; record?: string; expr: string }[] }[];
}

export const metricNamesIn = {
  /** The project's metric names (agent_console_…) written anywhere in a file's text. */
  text(text: string): string[] {
    return [...new Set(text.match(/\bagent_console_[a-z0-9_]+/g) ?? [])];
  },
  /** The alert names of a Prometheus rule file. */
  alertNames(text: string): string[] {
    const file = parse(text) as RuleFile;
    return file.groups.flatMap((g) => g.rules.flatMap((r) => (r.alert ? [r.alert] : [])));
  },
};
