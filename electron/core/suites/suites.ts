// Agent test suites as every front end uses them (`core.suites`): `agent-console test`, the Tests
// screen through the bridge and the monitors' synthetic checks all load, pick targets and run
// here, so a run is prepared one way. The Tests screen's workspace lives here too: the folder it
// opened and its watcher, the runs under way (to cancel). The run history is here too: runs kept
// on disk with where and what they ran, any two of them diffed, a baseline for a gate.
//
// The heavy parts — YAML, JSON Schema, RE2, the folder watcher — load at the first call that
// needs them: the core makes this object at its first use, and a CLI call that runs no suite, or
// a window that never opens the Tests screen, loads none of them.
import { basename, join } from 'node:path';
import type { SuitesProgress } from '../../../shared/bridge/suites';
import type { HumanLabel, RunCalibration } from '../../../shared/calibration';
import type { KeptRun, RunDiff, RunListItem, RunRetention, RunShard } from '../../../shared/run-history';
import type {
  FolderListing,
  RunComparison,
  StoredSuiteRun,
  SuiteRunSummary,
} from '../../../shared/suite-folder';
import type { BrokenSuite, SuiteRunResult } from '../../../shared/suite-run';
import type { Transcript, TranscriptRef } from '../../../shared/transcript';
import type { AppLog } from '../app-log';
import { CoreError } from '../core-error';
import type { Profile } from '../profiles';
import { compareRuns } from './run-compare';
import type { HarCasesWritten } from './har-cases';
import { runWhat, runWhere, sameRunShape } from './run-context';
import { diffRuns } from './run-diff';
import { DEFAULT_RETENTION, RunStore } from './run-store';
import type { ConversationCaseRequest, ReplyReviews } from './conversation-case';
import type { ObservedReply } from './save-case';
import type { SuiteEnvOptions } from './suite-env';
import type { SuiteExchange } from './suite-exchange';
import type { LoadedSuite } from './suite-loader';
import type { RunOptions, RunSuite, RunTarget } from './suite-runner';
import { suiteTargets, type TargetChoice } from './suite-targets';

/** The parts of the core the suites use (structural: no import cycle). */
export interface SuitesHost {
  dataDir: string;
  /** Every exchange of a run: the core's (suite-exchange.ts), so through each key's one limiter. */
  exchange: SuiteExchange;
  /** A profile by id or name; the active one without. */
  profile(ref?: string): Profile;
  appLog: Pick<AppLog, 'error'>;
  /** A recorded conversation or thread, for "Save as test case" (the core's transcripts). */
  transcript?: (ref: TranscriptRef) => Promise<Transcript | undefined>;
  /** The reviews people gave its replies, by message id (the core's transcripts' reviews). */
  replyReviews?: (ref: TranscriptRef) => ReplyReviews;
  /** How long runs are kept, as settings say (settings.json `testRuns`); the defaults without. */
  retention?: () => Partial<RunRetention>;
}

/** `runAndKeep`'s options: the run's, and bounds of the history that override the settings. */
export type KeepOptions = Omit<RunOptions, 'exchange'> & {
  retention?: Partial<RunRetention>;
  shard?: RunShard;
};

/**
 * How the user names a folder for the core to read, watch and write in: the desktop's native
 * chooser only, or in the browser a typed path inside the home folder (docs/security.md, "Suite
 * and monitors files").
 */
export type FolderAccess =
  | { kind: 'chooser'; choose: ((title?: string) => Promise<string | undefined>) | undefined }
  | { kind: 'typed'; homeDir: string };

type Listener<T> = (value: T) => void;

export class Suites {
  private readonly store: RunStore;
  private folder: string | undefined;
  private stopWatching: (() => Promise<void>) | undefined;
  private readonly running = new Map<string, AbortController>();
  private readonly changed = new Set<Listener<FolderListing>>();
  private readonly progress = new Set<Listener<SuitesProgress>>();

  constructor(private readonly host: SuitesHost) {
    // `test-runs`, as the data folder's layout names it (docs/security.md, "The data folder"):
    // where the runs users have kept already are.
    this.store = new RunStore(join(host.dataDir, 'test-runs'), () => ({
      ...DEFAULT_RETENTION,
      ...host.retention?.(),
    }));
  }

  // ── Loading. Reads files and the declared environment only, so it needs no open core: the CLI
  // loads every file before it opens one, and a file that may not run sends nothing.

  /**
   * The suite files named (a folder: its *.yaml and *.yml), each loaded. A file that does not load
   * is returned with its problems, every one at once, and does not stop the others: the one rule
   * of the CLI and the Tests screen is that it becomes a failing row of the run (`broken` in
   * `run`'s options) and the files beside it run (docs/architecture.md, "Test suites").
   */
  static async load(paths: readonly string[]): Promise<{ suites: LoadedSuite[]; broken: BrokenSuite[] }> {
    const loader = await import('./suite-loader');
    const suites: LoadedSuite[] = [];
    const broken: BrokenSuite[] = [];
    for (const file of await loader.findSuiteFiles(paths)) {
      try {
        suites.push(await loader.loadSuiteFile(file));
      } catch (error) {
        if (!(error instanceof loader.SuiteFileError)) throw error;
        broken.push({ file: error.file, problems: error.problems });
      }
    }
    return { suites, broken };
  }

  /** One suite file, read with the environment rules of `options` (a monitor's key variable). */
  static async loadFile(path: string, options: SuiteEnvOptions = {}): Promise<LoadedSuite> {
    const { loadSuiteFile } = await import('./suite-loader');
    return loadSuiteFile(path, process.env, options);
  }

  /** Suite text that is no file of the user's (a monitor's one message); it reads no environment. */
  static async parse(text: string, name: string, options: SuiteEnvOptions = {}): Promise<LoadedSuite> {
    const { parseSuite } = await import('./suite-loader');
    return parseSuite(text, name, {}, options);
  }

  // ── Running.

  /** What a suite runs against; the caller's profiles and agents override the suite's own. */
  targets(suite: LoadedSuite, choice: Partial<TargetChoice> = {}): RunTarget[] {
    return suiteTargets(suite, { resolveProfile: (name) => this.host.profile(name), ...choice });
  }

  /** Runs suites × targets through the core's exchanges; `onEvent` follows every step. */
  async run(runs: readonly RunSuite[], options: Omit<RunOptions, 'exchange'> = {}): Promise<SuiteRunResult> {
    const { runSuites } = await import('./suite-runner');
    const resolveProfile = (name: string): Profile => this.host.profile(name);
    return runSuites(runs, { resolveProfile, ...options, exchange: this.host.exchange });
  }

  /**
   * Runs, then keeps the whole run in the history with where and what it ran (the CLI's `test`
   * and the Tests screen; a monitor's synthetic checks are not kept here).
   */
  async runAndKeep(runs: readonly RunSuite[], options: KeepOptions = {}): Promise<KeptRun> {
    const { retention, shard, ...rest } = options;
    const files = runs.map(({ suite }) => ({ file: suite.file, name: suite.name }));
    const [result, what] = await Promise.all([this.run(runs, rest), runWhat(files)]);
    const kept: KeptRun = { ...result, where: runWhere(runs), what, ...(shard ? { shard } : {}) };
    await this.keep(kept, retention);
    return kept;
  }

  /** A kept run's human labels and its judges' agreement with them (run-labels.ts). */
  async calibration(runId: string): Promise<RunCalibration | null> {
    return (await import('./run-labels')).runCalibration(this.store, runId);
  }

  /** A person's pass/fail on a judged attempt of a kept run, kept with it. */
  async label(runId: string, label: HumanLabel): Promise<RunCalibration> {
    return (await import('./run-labels')).labelAttempt(this.store, runId, label);
  }

  /** Keeps a run made elsewhere: the shards of one run joined by `test merge`. */
  async keep(run: KeptRun, retention?: Partial<RunRetention>): Promise<void> {
    await this.store.save(run, retention);
  }

  // ── The run history (docs/architecture.md, "Run history and diffs").

  /** Every kept run, newest first. */
  history(): Promise<RunListItem[]> {
    return this.store.list();
  }

  /** A kept run by its id or the start of it (unique among the kept runs); null when none. */
  async keptRun(ref: string): Promise<KeptRun | null> {
    const ids = (await this.store.list()).map((r) => r.runId).filter((id) => id.startsWith(ref));
    const exact = ids.find((id) => id === ref);
    if (!exact && ids.length > 1) {
      throw new CoreError('BAD_INPUT', `${ref} starts ${ids.length} kept runs' ids: give more of it.`);
    }
    const id = exact ?? ids[0];
    return (id !== undefined ? await this.store.get(id) : undefined) ?? null;
  }

  /** What changed from `base` to `head`: each a kept run's id (or its start) or a results file. */
  async diff(base: string, head: string): Promise<RunDiff> {
    const [before, after] = await Promise.all([this.runNamed(base), this.runNamed(head)]);
    return diffRuns(before, after);
  }

  /**
   * As `diff`, between kept runs only: what the bridge offers, so a window never names a file for
   * the core to read (docs/security.md, "Suite and monitors files").
   */
  async diffKept(base: string, head: string): Promise<RunDiff> {
    const kept = async (ref: string): Promise<KeptRun> => {
      const run = await this.keptRun(ref);
      if (!run) throw new CoreError('NOT_FOUND', `No kept run ${ref}.`);
      return run;
    };
    const [before, after] = await Promise.all([kept(base), kept(head)]);
    return diffRuns(before, after);
  }

  /**
   * The run a gate compares with: `last` — the newest kept run (not cancelled) of the same suite
   * files on the same profiles and hosts —, a kept run's id, or a `--reporter json` results file.
   * Resolved before the run, so a baseline that cannot be found sends nothing. Undefined: `last`
   * with no such run yet.
   */
  async baseline(spec: string, runs: readonly RunSuite[]): Promise<KeptRun | undefined> {
    if (spec !== 'last') return this.runNamed(spec);
    const shape = {
      where: runWhere(runs),
      what: { files: runs.map(({ suite }) => ({ file: suite.file, name: suite.name })) },
    };
    return this.store.newest((item) => item.status !== 'cancelled' && sameRunShape(item, shape));
  }

  private async runNamed(ref: string): Promise<KeptRun> {
    if (/\.json$/i.test(ref) || /[\\/]/.test(ref)) {
      const { readResultsFile } = await import('./run-results-file');
      return readResultsFile(ref);
    }
    const run = await this.keptRun(ref);
    if (!run) {
      throw new CoreError('NOT_FOUND', `No kept run ${ref}: \`agent-console test runs\` lists them.`);
    }
    return run;
  }

  // ── The Tests screen's workspace.

  /** Opens a folder of suite files and watches it; null when the chooser was cancelled. */
  async open(path: string | undefined, access: FolderAccess): Promise<FolderListing | null> {
    const { checkFolder, checkTypedFolder, listFolder, watchFolder } = await import('./suite-folder');
    let dir: string;
    if (access.kind === 'chooser') {
      if (path !== undefined) {
        throw new CoreError(
          'BAD_INPUT',
          'In the desktop app a folder is opened with Choose folder…; a typed path is for the console in a browser.',
        );
      }
      if (!access.choose) throw new CoreError('BAD_INPUT', 'This window has no folder chooser.');
      const chosen = await access.choose();
      if (chosen === undefined) return null;
      dir = await checkFolder(chosen);
    } else {
      if (path === undefined || path.trim() === '') {
        throw new CoreError(
          'BAD_INPUT',
          `Type the path of a folder of suite files inside your home folder (${access.homeDir}); a relative path starts there.`,
        );
      }
      dir = await checkTypedFolder(path, access.homeDir);
    }
    const listing = await listFolder(dir);
    await this.stopWatching?.();
    this.folder = dir;
    this.stopWatching = watchFolder(dir, () => {
      if (this.folder !== dir) return;
      listFolder(dir).then(
        (next) => tell(this.changed, next),
        (error: unknown) => this.host.appLog.error(`suites: cannot list ${dir}: ${String(error)}`),
      );
    });
    return listing;
  }

  /** The open folder's suites again; null when none is open. */
  async list(): Promise<FolderListing | null> {
    if (!this.folder) return null;
    const { listFolder } = await import('./suite-folder');
    return listFolder(this.folder);
  }

  /**
   * Starts a run of the open folder's suites (all, one `file`, or one `caseKey` of it) against
   * their own targets; resolves with its id once planned, so the screen can cancel at once.
   * Progress goes to `onProgress`; the finished run is kept and compared with the previous one.
   */
  async start(request: {
    file?: string;
    caseKey?: string;
    concurrency?: number;
  }): Promise<{ runId: string }> {
    const { suites, broken } = await this.loadFromFolder(request.file, request.caseKey);
    const runs = suites.map((suite) => ({ suite, targets: this.targets(suite) }));
    const controller = new AbortController();
    return new Promise((resolve, reject) => {
      this.startAndKeep(runs, broken, controller, (runId) => resolve({ runId }), request.concurrency).catch(
        (error: unknown) => {
          this.host.appLog.error(`suites: the run failed: ${String(error)}`);
          reject(error);
        },
      );
    });
  }

  cancel(runId: string): { cancelled: boolean } {
    const controller = this.running.get(runId);
    controller?.abort();
    return { cancelled: controller !== undefined };
  }

  /** A suite's part of each kept run that ran it, newest first. */
  async runs(file: string): Promise<SuiteRunSummary[]> {
    return (await this.store.suiteRuns(await this.pathOf(file))).map((run) => ({
      runId: run.runId,
      startedAt: run.startedAt,
      status: run.status,
      passed: run.cells.filter((c) => c.status === 'passed').length,
      failed: run.cells.filter((c) => c.status === 'failed').length,
    }));
  }

  async storedRun(file: string, runId: string): Promise<StoredSuiteRun | null> {
    return (await this.store.suiteRun(await this.pathOf(file), runId)) ?? null;
  }

  /** A kept run against the previous run of the same suite; null when there is none. */
  async compare(file: string, runId: string, slowerPercent?: number): Promise<RunComparison | null> {
    const path = await this.pathOf(file);
    const [current, previous] = await Promise.all([
      this.store.suiteRun(path, runId),
      this.store.previousSuiteRun(path, runId),
    ]);
    return current && previous ? compareRuns(previous, current, slowerPercent) : null;
  }

  /** "Save as test case": appends a case suggested from a reply to a suite file of the open folder. */
  async saveCase(
    request: Omit<ObservedReply, 'agent'> & {
      file: string;
      agent?: string | undefined;
      name?: string | undefined;
    },
  ): Promise<{ file: string; caseName: string }> {
    const { file, name, ...observed } = request;
    const path = await this.pathOf(file);
    const { saveCase } = await import('./save-case');
    const saved = await saveCase(path, { ...observed, agent: observed.agent }, name);
    return { file, caseName: saved.caseName };
  }

  /** "Save as test case" from a recorded conversation or thread (conversation-case.ts). */
  async saveConversationCase(request: ConversationCaseRequest): Promise<{ file: string; caseName: string }> {
    const path = await this.pathOf(request.file);
    const transcript = await this.host.transcript?.(request.transcript);
    if (!transcript) throw new CoreError('NOT_FOUND', 'No history of that conversation is recorded here.');
    const { saveConversationCase } = await import('./conversation-case');
    const reviews = request.reviews ?? this.host.replyReviews?.(request.transcript);
    const { caseName } = await saveConversationCase(path, transcript, reviews);
    return { file: request.file, caseName };
  }

  /** A HAR file's chats as new suite files in the open folder (har-cases.ts). */
  async importHar(fileName: string, text: string): Promise<HarCasesWritten> {
    const folder = this.openFolder();
    const { writeHarCases } = await import('./har-cases');
    return writeHarCases(folder, fileName, text);
  }

  /** The open folder's suites after a file was added, edited or removed on disk. */
  onChanged(listener: Listener<FolderListing>): () => void {
    this.changed.add(listener);
    return () => this.changed.delete(listener);
  }

  /** A workspace run as the screen follows it: attempts without their steps, the end with comparisons. */
  onProgress(listener: Listener<SuitesProgress>): () => void {
    this.progress.add(listener);
    return () => this.progress.delete(listener);
  }

  async close(): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    await this.stopWatching?.();
  }

  private openFolder(): string {
    if (!this.folder) throw new CoreError('NO_FOLDER', 'Open a folder of suite files first.');
    return this.folder;
  }

  /** A suite file of the open folder by its name; nothing that leaves the folder. */
  private async pathOf(file: string): Promise<string> {
    const folder = this.openFolder();
    const { suitePath } = await import('./suite-folder');
    return suitePath(folder, file);
  }

  private async loadFromFolder(
    file: string | undefined,
    caseKey: string | undefined,
  ): Promise<{ suites: LoadedSuite[]; broken: BrokenSuite[] }> {
    const dir = this.openFolder();
    const { suiteFileNames, suitePath } = await import('./suite-folder');
    const names = file ? [file] : await suiteFileNames(dir);
    const loaded = await Suites.load(names.map((name) => suitePath(dir, name)));
    const [first] = loaded.suites;
    if (caseKey === undefined || !first) return loaded;
    const only = first.cases.filter((c) => c.key === caseKey);
    if (only.length === 0) throw new CoreError('NOT_FOUND', `The suite has no case ${caseKey}.`);
    return { suites: [{ ...first, cases: only }], broken: [] };
  }

  private async startAndKeep(
    runs: RunSuite[],
    broken: BrokenSuite[],
    controller: AbortController,
    onStarted: (runId: string) => void,
    concurrency: number | undefined,
  ): Promise<void> {
    const result = await this.runAndKeep(runs, {
      ...(concurrency !== undefined ? { concurrency } : {}),
      broken,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'run-started') {
          this.running.set(event.plan.runId, controller);
          tell(this.progress, event);
          onStarted(event.plan.runId);
        } else if (event.type === 'attempt-started') {
          tell(this.progress, { type: 'attempt-started', runId: event.runId, cellId: event.cellId });
        } else if (event.type === 'attempt-finished') {
          const { runId, cellId, done, total } = event;
          tell(this.progress, { type: 'attempt-finished', runId, cellId, done, total });
        } else if (event.type === 'cell-finished') {
          tell(this.progress, event);
        }
      },
    });
    this.running.delete(result.runId);
    const comparisons: Record<string, RunComparison | null> = {};
    for (const suite of result.suites) {
      const previous = await this.store.previousSuiteRun(suite.file, result.runId);
      comparisons[basename(suite.file)] = previous ? compareRuns(previous, suite) : null;
    }
    const { suites: _suites, where: _where, what: _what, ...rest } = result;
    tell(this.progress, { type: 'run-finished', result: rest, comparisons });
  }
}

function tell<T>(listeners: ReadonlySet<Listener<T>>, value: T): void {
  for (const listener of listeners) listener(value);
}
