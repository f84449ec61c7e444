// Where the status page comes from and goes: gathered from the running monitors, then written as
// index.html and status.json into a folder people serve as it is (the app's "Publish status
// page…", the headless monitor's --status-page), or kept for the headless monitor to serve at
// /status. Each file is replaced whole (a temp file renamed over it), so a web server never hands
// out half a page, and readable by the web server (0644): it is meant to be public. The text
// passes the output guard like every file the console writes.
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { PublishedStatusPage } from '../../../shared/monitor';
import { CoreError } from '../core-error';
import { guardText } from '../output-guard';
import { checkFolder, checkTypedFolder } from '../suites/suite-folder';
import type { FolderAccess } from '../suites/suites';
import { publicOf } from './monitor-config';
import type { MonitorRegistry } from './monitor-registry';
import { STATUS_DAYS, statusPage, type StatusSource } from './status-page';
import { statusPageHtml } from './status-page-html';

const STATUS_PAGE_FILES = { html: 'index.html', json: 'status.json' } as const;

export interface StatusPageText {
  html: string;
  json: string;
  /** How many monitors it shows. */
  monitors: number;
}

export async function statusPageText(registry: MonitorRegistry, now: number): Promise<StatusPageText> {
  const sources: StatusSource[] = [];
  for (const monitor of registry.all()) {
    if (!publicOf(monitor.config)) continue;
    const view = monitor.view();
    sources.push({
      config: monitor.config,
      status: monitor.currentStatus(),
      ...(view.since !== undefined ? { since: view.since } : {}),
      days: await monitor.minutes.days(now, STATUS_DAYS),
      maintenance: view.maintenance ?? {},
      failing: monitor.failingChecks(),
      incidents: registry.incidents.log.list({ monitorId: monitor.id, open: true }),
    });
  }
  const page = statusPage(sources, now);
  return {
    html: guardText(statusPageHtml(page)),
    json: guardText(`${JSON.stringify(page, null, 2)}\n`),
    monitors: page.monitors.length,
  };
}

/** Writes both files into `dir` (which exists); answers their paths. */
export async function writeStatusPage(dir: string, text: StatusPageText): Promise<string[]> {
  const json = join(dir, STATUS_PAGE_FILES.json);
  const html = join(dir, STATUS_PAGE_FILES.html);
  // The data first: a page never links to a status.json older than itself.
  await writeFileAtomic(json, text.json, { mode: 0o644 });
  await writeFileAtomic(html, text.html, { mode: 0o644 });
  return [html, json];
}

/** The folder "Publish status page…" writes to: chosen in the desktop's dialog, or typed inside home. */
async function publishFolder(path: string | undefined, access: FolderAccess): Promise<string | undefined> {
  if (access.kind === 'typed') {
    if (path === undefined || path.trim() === '') {
      throw new CoreError(
        'BAD_INPUT',
        `Type the path of the folder for the status page, inside your home folder (${access.homeDir}); a relative path starts there.`,
      );
    }
    return checkTypedFolder(path, access.homeDir, 'publish the status page to a folder there');
  }
  if (path !== undefined) {
    throw new CoreError('BAD_INPUT', 'In the desktop app the folder is chosen in the dialog, not typed.');
  }
  if (!access.choose) throw new CoreError('BAD_INPUT', 'This window has no folder chooser.');
  const chosen = await access.choose('Publish the status page to a folder');
  return chosen === undefined ? undefined : checkFolder(chosen);
}

/**
 * "Publish status page…": the page of the monitors on it, written into a folder; refused in words
 * while no monitor is on it (before a folder is asked for). Null when the dialog was cancelled.
 */
export async function publishStatusPage(
  registry: MonitorRegistry,
  path: string | undefined,
  access: FolderAccess,
  now: number,
): Promise<PublishedStatusPage | null> {
  if (!registry.all().some((m) => publicOf(m.config))) {
    throw new CoreError(
      'BAD_INPUT',
      'No monitor is on the status page: tick "On the status page" in a monitor’s form (or write public: true in the monitors file), then publish.',
    );
  }
  const folder = await publishFolder(path, access);
  if (folder === undefined) return null;
  const text = await statusPageText(registry, now);
  return { folder, files: await writeStatusPage(folder, text), monitors: text.monitors };
}

export interface StatusPagePublisherOptions {
  /** A folder to keep the files in; without one the page is only kept for serving. */
  dir?: string;
  /** A change is written at most this often. */
  everyMs: number;
  now: () => number;
  onWarning?: (message: string) => void;
}

/** The days' bars move on as minutes close, with no change to tell: the page is rebuilt this often too. */
const REFRESH_MS = 60_000;

/**
 * The headless monitor's status page: rebuilt on every change of its monitors and incidents (at
 * most every `everyMs`) and each minute, written to the folder if one is given, and kept for
 * /status and /status.json.
 */
export class StatusPagePublisher {
  private latest: StatusPageText | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refresh: NodeJS.Timeout | undefined;
  private lastBuilt = 0;
  private building: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly registry: MonitorRegistry,
    private readonly options: StatusPagePublisherOptions,
  ) {}

  /** Builds (and writes) the first page; then follows the monitors. */
  async start(): Promise<void> {
    await this.rebuild();
    this.unsubscribe = this.registry.subscribe((event) => {
      if (event.type !== 'notification' || !event.notification.test) this.soon();
    });
    this.refresh = setInterval(() => this.soon(), REFRESH_MS);
    this.refresh.unref();
  }

  /** The newest page, for /status and /status.json. */
  current(): StatusPageText | undefined {
    return this.latest;
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    clearInterval(this.refresh);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.building;
  }

  private soon(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastBuilt + this.options.everyMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.rebuild();
    }, wait);
    this.timer.unref();
  }

  private rebuild(): Promise<void> {
    this.building = this.building.then(async () => {
      this.lastBuilt = Date.now();
      try {
        const text = await statusPageText(this.registry, this.options.now());
        this.latest = text;
        if (this.options.dir) await writeStatusPage(this.options.dir, text);
      } catch (error) {
        this.options.onWarning?.(`The status page could not be written: ${(error as Error).message}`);
      }
    });
    return this.building;
  }
}
