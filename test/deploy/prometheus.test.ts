// The headless monitor feeding a real Prometheus: `agent-console monitor` runs against
// the real mock, a real Prometheus (Debian's package) scrapes its /metrics on loopback every
// second and evaluates the shipped alert rules, and its HTTP API shows the status change after a
// chaos preset flips the service's health. promtool lints the project's own metric families and
// the shipped rules; every metric the alerts and the dashboard use is one Prometheus ingested.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../support/free-port';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { metricNamesIn } from './metric-names';
import { until } from '../support/until';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const hasPrometheus = has('prometheus') && has('promtool');
const NO_PROMETHEUS =
  'skipped: prometheus/promtool are not installed (Debian: apt-get install prometheus; .ci/run installs it)';
const ROOT = resolve(import.meta.dirname, '../..');
const ALERTS = join(ROOT, 'deploy/alerts.yml');

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

let dataDir: string;
let mock: TestMock;
let monitor: ChildProcess;
let monitorOut = '';
let monitorErr = '';
let monitorExit: Promise<number | null>;
let prometheus: ChildProcess | undefined;
let prometheusLog = '';
let metricsUrl: string;
let promUrl: string;

async function query(expr: string): Promise<Sample[]> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; data: { result: Sample[] } };
  if (body.status !== 'success') throw new Error(`query ${expr}: ${JSON.stringify(body)}`);
  return body.data.result;
}

describe.skipIf(!hasPrometheus)(
  `headless monitor scraped by a real Prometheus${hasPrometheus ? '' : ` (${NO_PROMETHEUS})`}`,
  () => {
    beforeAll(async () => {
      dataDir = tempDir('agent-console-prometheus-');
      mock = await startTestMock();
      mock.server.control.setAgent('echo', { latencyMs: 0, chunkDelayMs: 0 });
      const ca = join(dataDir, 'mock-ca.pem');
      writeFileSync(ca, mock.server.ca);
      const config = join(dataDir, 'monitors.yaml');
      writeFileSync(
        config,
        [
          'monitors:',
          '  - name: Production',
          '    service:',
          `      baseUrl: ${mock.server.baseUrl}`,
          `      ca: ${ca}`,
          '    health:',
          '      every: 10s',
          '    synthetic:',
          '      every: 1m',
          '      agents: [echo]',
          '      message: ping',
          '      assert:',
          '        - contains: ping',
          '    budgets: { ttft-p95: 2s }',
          '    slo: { availability: 99.9% }',
          '',
        ].join('\n'),
      );
      const metricsPort = await freePort();
      metricsUrl = `http://127.0.0.1:${metricsPort}`;
      // As on a server or in the container: the key in the environment, no keychain session bus.
      const env: NodeJS.ProcessEnv = { ...process.env, AGENT_API_KEY: mock.server.keys.pro };
      delete env.DBUS_SESSION_BUS_ADDRESS;
      monitor = spawn(
        process.execPath,
        [
          join(ROOT, 'bin/agent-console.js'),
          'monitor',
          '--config',
          config,
          '--metrics',
          `127.0.0.1:${metricsPort}`,
          '--data-dir',
          join(dataDir, 'console'),
        ],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      monitor.stdout?.on('data', (d: Buffer) => (monitorOut += d.toString()));
      monitor.stderr?.on('data', (d: Buffer) => (monitorErr += d.toString()));
      monitorExit = new Promise((done) => monitor.once('exit', (code) => done(code)));
      await until(
        `the monitor's /healthz (stderr: ${monitorErr})`,
        async () => ((await fetch(`${metricsUrl}/healthz`)).ok ? true : undefined),
        20_000,
      );

      const promPort = await freePort();
      promUrl = `http://127.0.0.1:${promPort}`;
      const promConfig = join(dataDir, 'prometheus.yml');
      // The shipped rules, scraped and evaluated every second so the test stays short.
      writeFileSync(
        promConfig,
        [
          'global:',
          '  scrape_interval: 1s',
          '  evaluation_interval: 1s',
          'rule_files:',
          `  - ${ALERTS}`,
          'scrape_configs:',
          '  - job_name: agent-console',
          '    static_configs:',
          `      - targets: ['127.0.0.1:${metricsPort}']`,
          '',
        ].join('\n'),
      );
      prometheus = spawn(
        'prometheus',
        [
          `--config.file=${promConfig}`,
          `--storage.tsdb.path=${join(dataDir, 'tsdb')}`,
          `--web.listen-address=127.0.0.1:${promPort}`,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      prometheus.stderr?.on(
        'data',
        (d: Buffer) => (prometheusLog = (prometheusLog + d.toString()).slice(-4000)),
      );
      await until(
        `Prometheus to be ready (${prometheusLog})`,
        async () => ((await fetch(`${promUrl}/-/ready`)).ok ? true : undefined),
        30_000,
      );
    }, 60_000);

    afterAll(async () => {
      if (prometheus && prometheus.exitCode === null) {
        const exited = new Promise((done) => prometheus?.once('exit', done));
        prometheus.kill('SIGTERM');
        await exited;
      }
      if (monitor && monitor.exitCode === null) {
        monitor.kill('SIGKILL');
        await monitorExit;
      }
      await mock?.stop();
      removeDir(dataDir);
    }, 30_000);

    test('Prometheus sees the status change after a chaos preset flips health', async () => {
      const healthy = await until('a scraped healthy status', async () => {
        const rows = await query('agent_console_monitor_status{monitor="Production",status="healthy"} == 1');
        return rows.length === 1 ? rows : undefined;
      });
      expect(healthy[0]?.metric).toMatchObject({
        job: 'agent-console',
        monitor: 'Production',
        status: 'healthy',
      });
      // The synthetic check ran at start and passed: its TTFT is in Prometheus's histogram.
      const ttft = await until('synthetic TTFT samples', async () => {
        const rows = await query(
          'sum(agent_console_synthetic_ttft_seconds_count{monitor="Production",agent="echo"})',
        );
        return Number(rows[0]?.value[1] ?? 0) >= 1 ? rows : undefined;
      });
      expect(Number(ttft[0]?.value[1])).toBeGreaterThanOrEqual(1);

      mock.server.control.applyChaos('outage');
      // Confirmed after two polls 10 s apart, then the next scrape.
      const unhealthy = await until('the unhealthy status in Prometheus', async () => {
        const rows = await query(
          'agent_console_monitor_status{monitor="Production",status="unhealthy"} == 1',
        );
        return rows.length === 1 ? rows : undefined;
      });
      expect(unhealthy[0]?.metric.status).toBe('unhealthy');
      expect(await query('agent_console_monitor_status{monitor="Production",status="healthy"} == 1')).toEqual(
        [],
      );
      // The API component's state is down in the newest report.
      const api = await query(
        'agent_console_health_component_status{monitor="Production",component="api"} == 1',
      );
      expect(api[0]?.metric.state).toBe('down');
      // The shipped rule sees it and waits its 2 minutes before firing.
      const pending = await until('the AgentServiceUnhealthy alert pending', async () => {
        const res = await fetch(`${promUrl}/api/v1/alerts`);
        const body = (await res.json()) as {
          data: { alerts: { labels: Record<string, string>; state: string }[] };
        };
        const alert = body.data.alerts.find((a) => a.labels.alertname === 'AgentServiceUnhealthy');
        return alert ? alert : undefined;
      });
      expect(pending).toMatchObject({
        state: 'pending',
        labels: { monitor: 'Production', severity: 'page' },
      });
      // One line on stdout per confirmed change.
      expect(monitorOut).toMatch(/Production {2}Healthy -> Unhealthy/);
      expect(monitorOut.split('\n').filter((l) => l.includes('-> Unhealthy'))).toHaveLength(1);
    }, 60_000);

    test('every shipped rule evaluates without error against the scraped data', async () => {
      const res = await fetch(`${promUrl}/api/v1/rules`);
      const body = (await res.json()) as {
        data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] };
      };
      const rules = body.data.groups.flatMap((g) => g.rules);
      expect(rules.map((r) => r.name).sort()).toEqual(
        metricNamesIn.alertNames(readFileSync(ALERTS, 'utf8')).sort(),
      );
      await until(
        'every rule evaluated',
        async () => {
          const again = (await (await fetch(`${promUrl}/api/v1/rules`)).json()) as typeof body;
          const all = again.data.groups.flatMap((g) => g.rules);
          return all.every((r) => r.health === 'ok') ? all : undefined;
        },
        10_000,
      );
    });

    test('every metric the alerts and the Grafana dashboard use is one Prometheus ingested', async () => {
      const res = await fetch(`${promUrl}/api/v1/label/__name__/values`);
      const ingested = new Set(((await res.json()) as { data: string[] }).data);
      const used = new Set([
        ...metricNamesIn.text(readFileSync(ALERTS, 'utf8')),
        ...metricNamesIn.text(readFileSync(join(ROOT, 'deploy/grafana-dashboard.json'), 'utf8')),
      ]);
      expect(used.size).toBeGreaterThanOrEqual(10);
      const missing = [...used].filter((name) => !ingested.has(name));
      expect(missing).toEqual([]);
    });

    test('promtool finds nothing in the project’s own metric families', async () => {
      const text = await (await fetch(`${metricsUrl}/metrics`)).text();
      // prom-client's default Node.js metrics are served too (the process's own health) …
      expect(text).toMatch(/^process_cpu_user_seconds_total /m);
      expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
      // … but carry lint findings of their own (gauges named nodejs_active_*_total): they are left out.
      const own = ownFamilies(text);
      expect(own).toContain('# TYPE agent_console_monitor_status gauge');
      expect(own).toContain('# TYPE agent_console_synthetic_ttft_seconds histogram');
      expect(own).not.toMatch(/^(nodejs|process)_/m);
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: own, encoding: 'utf8' });
      expect({ status: lint.status, output: `${lint.stdout}${lint.stderr}` }).toEqual({
        status: 0,
        output: '',
      });
    });

    test('SIGTERM stops it cleanly with the history on disk', async () => {
      monitor.kill('SIGTERM');
      expect(await monitorExit).toBe(0);
      const history = join(dataDir, 'console/monitors/production');
      expect(readFileSync(join(history, 'health.jsonl'), 'utf8').split('\n').length).toBeGreaterThan(3);
      expect(readFileSync(join(history, 'synthetic.jsonl'), 'utf8')).toContain('"a":"echo"');
      expect(existsSync(join(history, 'health.jsonl'))).toBe(true);
    });
  },
);

/** The exposition text's families whose names start with the project's prefix. */
function ownFamilies(text: string): string {
  const keep: string[] = [];
  for (const line of text.split('\n')) {
    const name = line.startsWith('# ') ? line.split(' ')[2] : line.split(/[ {]/)[0];
    if (name?.startsWith('agent_console_')) keep.push(line);
  }
  return `${keep.join('\n')}\n`;
}
