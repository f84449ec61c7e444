// The shipped deployment files (deploy/) agree with what the headless monitor is: the metric names
// the alerts and the Grafana dashboard use are families the monitor serves, the Dockerfile and the
// systemd unit run `agent-console monitor` with options it has and health-check the address it
// serves, Prometheus scrapes that address, and the tools that own each format accept the files
// (promtool for the config and rules and their unit tests, systemd-analyze for the unit, the
// monitors file parser for the example).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { parseMonitorsFile } from '../../electron/core/monitors/monitor-config';
import { monitorMetrics, type MonitorMetricsHost } from '../../electron/core/monitors/monitor-metrics';
import { metricNamesIn } from './metric-names';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPLOY = join(ROOT, 'deploy');
const read = (name: string) => readFileSync(join(DEPLOY, name), 'utf8');
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const hasPromtool = has('promtool');
const hasSystemdAnalyze = has('systemd-analyze');

/** The series names of the monitor's own families (a histogram's _bucket, _sum and _count). */
async function servedSeriesNames(): Promise<Set<string>> {
  // No monitors: the families and their types are all we look at here (the Prometheus test reads
  // the same names from a real monitor's /metrics).
  const host = {
    monitors: { list: () => [], all: () => [], get: () => undefined, subscribe: () => () => undefined },
    limiters: {},
    vault: {},
  } as unknown as MonitorMetricsHost;
  const metrics = monitorMetrics(host, { defaultMetrics: false });
  const names = new Set<string>();
  for (const family of await metrics.registry.getMetricsAsJSON()) {
    names.add(family.name);
    if (String(family.type) === 'histogram')
      for (const s of ['_bucket', '_sum', '_count']) names.add(family.name + s);
  }
  metrics.close();
  return names;
}

/** The CLI's `monitor` options, from its help text. */
function monitorOptions(): string[] {
  const help = spawnSync(process.execPath, [join(ROOT, 'bin/agent-console.js'), 'monitor', 'run', '--help'], {
    encoding: 'utf8',
  }).stdout;
  return [...new Set(help.match(/--[a-z-]+/g) ?? [])];
}

const flagsOf = (args: string[]) => args.filter((a) => a.startsWith('--'));

describe('deploy/ agrees with the headless monitor', () => {
  test('every metric the alert rules and the Grafana dashboard use is a family the monitor serves', async () => {
    const served = await servedSeriesNames();
    const dashboard = read('grafana-dashboard.json');
    const used = [...metricNamesIn.text(read('alerts.yml')), ...metricNamesIn.text(dashboard)];
    expect(used.length).toBeGreaterThanOrEqual(10);
    expect(used.filter((name) => !served.has(name))).toEqual([]);
    // The dashboard is importable JSON: every panel has a query, panel ids are unique.
    const parsed = JSON.parse(dashboard) as { panels: { id: number; targets: { expr: string }[] }[] };
    expect(new Set(parsed.panels.map((p) => p.id)).size).toBe(parsed.panels.length);
    for (const panel of parsed.panels) expect(panel.targets.every((t) => t.expr.length > 0)).toBe(true);
  });

  test('the Dockerfile: multi-stage, built with npm run build, non-root, the monitor as entrypoint, health-checked', () => {
    const docker = read('Dockerfile');
    const instructions = docker
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    const arg = (kind: string) =>
      instructions.filter((l) => l.startsWith(`${kind} `)).map((l) => l.slice(kind.length + 1));
    expect(arg('FROM')).toHaveLength(2);
    expect(arg('FROM')[0]).toMatch(/ AS build$/);
    expect(arg('COPY').filter((c) => c.startsWith('--from=build')).length).toBeGreaterThanOrEqual(2);
    expect(arg('RUN').some((r) => r.includes('npm run build'))).toBe(true);
    expect(arg('USER')).toEqual(['node']);
    const entry = JSON.parse(arg('ENTRYPOINT')[0] as string) as string[];
    const cmd = JSON.parse(arg('CMD')[0] as string) as string[];
    expect(entry.slice(0, 1)).toEqual(['node']);
    expect(entry.at(-1)).toBe('monitor');
    const known = monitorOptions();
    expect(known).toEqual(expect.arrayContaining(['--config', '--metrics', '--data-dir']));
    expect(flagsOf(cmd).filter((f) => !known.includes(f))).toEqual([]);
    const port = cmd[cmd.indexOf('--metrics') + 1]?.split(':')[1];
    expect(arg('EXPOSE')).toEqual([port]);
    const health = arg('HEALTHCHECK')[0] as string;
    expect(health).toContain(`http://127.0.0.1:${port}/healthz`);
    // No key in the image: it comes from the environment at run time.
    expect(docker).not.toMatch(/^ENV\s+AGENT_API_KEY/m);
  });

  test('the systemd unit runs the monitor with options it has, and Prometheus scrapes the address it serves', () => {
    const unit = read('agent-console-monitor.service');
    const exec = (/^ExecStart=(.+)$/m.exec(unit)?.[1] ?? '').split(/\s+/);
    expect(exec[2]).toBe('monitor');
    expect(flagsOf(exec).filter((f) => !monitorOptions().includes(f))).toEqual([]);
    const address = exec[exec.indexOf('--metrics') + 1];
    const prometheus = parse(read('prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const job = prometheus.scrape_configs.find((j) => j.job_name === 'agent-console');
    expect(job?.static_configs[0]?.targets).toEqual([address]);
    // The job name the MonitorDown alert watches.
    expect(read('alerts.yml')).toContain('up{job="agent-console"}');
    expect(prometheus.rule_files).toEqual(['alerts.yml']);
    expect(unit).toMatch(/^DynamicUser=yes$/m);
    expect(unit).not.toMatch(/^Environment=.*AGENT_API_KEY/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/agent-console\/monitor.env$/m);
  });

  test('the example monitors file is one the monitor accepts, its key named, never written', () => {
    const file = join(DEPLOY, 'monitors.example.yaml');
    const monitors = parseMonitorsFile(readFileSync(file, 'utf8'), file);
    expect(monitors.map((m) => [m.name, m.service?.keyEnv])).toEqual([
      ['Production', 'AGENT_API_KEY'],
      ['Staging', 'AGENT_STAGING_API_KEY'],
    ]);
    expect(monitors[0]?.synthetic?.every).toBe(5 * 60_000);
  });

  test.skipIf(!hasPromtool)(
    `promtool accepts the config, the alert rules and their unit tests${hasPromtool ? '' : ' (skipped: promtool is not installed; Debian: apt-get install prometheus)'}`,
    () => {
      const run = (...args: string[]) => spawnSync('promtool', args, { cwd: DEPLOY, encoding: 'utf8' });
      const rules = run('check', 'rules', 'alerts.yml');
      expect(rules.status, rules.stderr).toBe(0);
      expect(rules.stdout).toContain(
        `SUCCESS: ${metricNamesIn.alertNames(read('alerts.yml')).length} rules found`,
      );
      const config = run('check', 'config', 'prometheus.yml');
      expect(config.status, config.stderr).toBe(0);
      const unit = run('test', 'rules', 'alerts.test.yml');
      expect(unit.status, `${unit.stdout}${unit.stderr}`).toBe(0);
      expect(unit.stdout).toContain('SUCCESS');
    },
  );

  test.skipIf(!hasSystemdAnalyze)(
    `systemd-analyze verify accepts the unit${hasSystemdAnalyze ? '' : ' (skipped: systemd-analyze is not installed here; Debian: apt-get install systemd)'}`,
    () => {
      const verify = spawnSync('systemd-analyze', ['verify', join(DEPLOY, 'agent-console-monitor.service')], {
        encoding: 'utf8',
      });
      expect({ status: verify.status, output: verify.stderr.trim() }).toEqual({ status: 0, output: '' });
    },
  );
});
