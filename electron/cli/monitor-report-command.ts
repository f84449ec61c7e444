// `agent-console monitor report --month 2026-11`: each monitor's availability against its target
// over a calendar month (UTC), from the minute rollups and incidents the monitors keep in the data
// folder — a self-contained HTML page to print, or CSV — on stdout. It reads; it watches nothing,
// so it runs beside a headless monitor or the app on the same folder.
import { join, resolve } from 'node:path';
import type { CommandContext } from './cli-session';
import { UsageError } from './output';
import { IncidentLog } from '../core/monitors/incident-log';
import { MinuteHistory } from '../core/monitors/minute-history';
import { loadMonitorsFile, MONITORS_FILE } from '../core/monitors/monitor-config';
import { monthRange, periodFigures, reportCsv, reportHtml } from '../core/monitors/sla-report';

const MAX_DECIMALS = 6;

export async function monitorReportCommand(context: CommandContext): Promise<void> {
  const options = context.options as { month?: string; format?: string; decimals?: string; config?: string };
  const format = options.format ?? 'html';
  if (format !== 'html' && format !== 'csv')
    throw new UsageError(`--format takes html or csv (got "${format}").`);
  const decimals = Number(options.decimals ?? 3);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new UsageError(
      `--decimals takes a whole number from 0 to ${MAX_DECIMALS} (got "${options.decimals}").`,
    );
  }
  if (!options.month) throw new UsageError('Name the month: --month YYYY-MM, e.g. --month 2026-11.');
  let range: { from: number; to: number };
  try {
    range = monthRange(options.month);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const dataDir = context.globals.dataDir;
  const configs = await loadMonitorsFile(
    options.config ? resolve(options.config) : join(dataDir, MONITORS_FILE),
  );
  if (configs.length === 0) {
    throw new UsageError(
      'No monitors to report on: add some in the app, or pass --config (README "Monitors").',
    );
  }
  const historyDir = join(dataDir, 'monitors');
  const incidents = new IncidentLog(join(historyDir, 'incidents.jsonl'));
  const periods = [];
  for (const config of configs) {
    const minutes = new MinuteHistory(join(historyDir, config.id as string, 'minutes.jsonl'), 0);
    const rollups = await minutes.list(range.from, range.to);
    periods.push(
      periodFigures(
        config,
        rollups,
        incidents.list({ monitorId: config.id as string }),
        range.from,
        range.to,
      ),
    );
  }
  context.io.out(
    format === 'csv'
      ? // The terminal guard shows a carriage return as an escape: lines end with LF here.
        reportCsv(periods, decimals).replaceAll('\r\n', '\n').trimEnd()
      : reportHtml(periods, {
          title: `Availability report — ${options.month}`,
          decimals,
          generatedAt: Date.now(),
        }).trimEnd(),
  );
}
