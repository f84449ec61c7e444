// suites:… — the Tests screen (issue 16): a folder of suite files (opened by path or the desktop's
// chooser, watched for edits), runs of all / one suite / one case through the core's exchanges
// (so the key's limiter) with progress events and cancel, runs kept on disk and compared with the
// previous run of the same suite, and "Save as test case". The rules live in electron/core/suites.
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { SuitesProgress } from '../../../shared/bridge';
import type { RunComparison } from '../../../shared/suite-folder';
import { CoreError } from '../../core/core-error';
import { compareRuns } from '../../core/suites/run-compare';
import { RunStore } from '../../core/suites/run-store';
import { saveCase } from '../../core/suites/save-case';
import { coreSuiteExchange } from '../../core/suites/suite-exchange';
import {
  checkFolder,
  checkTypedFolder,
  listFolder,
  loadFolderSuite,
  suiteFileNames,
  suitePath,
  watchFolder,
} from '../../core/suites/suite-folder';
import type { LoadedSuite } from '../../core/suites/suite-loader';
import { runSuites, suiteTargets, type RunSuite } from '../../core/suites/suite-runner';
import type { DomainHandlers, HandlerContext } from './context';

export function suitesHandlers({
  core,
  emit,
  transport,
  chooseFolder,
  homeDir,
  onClose,
}: HandlerContext): DomainHandlers<'suites'> {
  const store = new RunStore(join(core.dataDir, 'test-runs'));
  let folder: string | undefined;
  let stopWatching: (() => Promise<void>) | undefined;
  const running = new Map<string, AbortController>();
  onClose(() => {
    void stopWatching?.();
    for (const controller of running.values()) controller.abort();
  });

  const openFolder = (): string => {
    if (!folder) throw new CoreError('NO_FOLDER', 'Open a folder of suite files first.');
    return folder;
  };

  const load = async (file: string | undefined, caseKey: string | undefined): Promise<LoadedSuite[]> => {
    const dir = openFolder();
    const files = file ? [file] : await suiteFileNames(dir);
    const suites: LoadedSuite[] = [];
    // A file that does not load stops the run with its problems: the screen shows them by line.
    for (const name of files) suites.push(await loadFolderSuite(dir, name));
    if (caseKey === undefined) return suites;
    const only = suites[0]?.cases.filter((c) => c.key === caseKey) ?? [];
    if (!suites[0] || only.length === 0)
      throw new CoreError('NOT_FOUND', `The suite has no case ${caseKey}.`);
    return [{ ...suites[0], cases: only }];
  };

  const run = async (
    runs: RunSuite[],
    controller: AbortController,
    onStarted: (runId: string) => void,
    concurrency?: number,
  ): Promise<void> => {
    const result = await runSuites(runs, {
      exchange: coreSuiteExchange(core),
      ...(concurrency !== undefined ? { concurrency } : {}),
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'run-started') {
          running.set(event.plan.runId, controller);
          emit('suites:progress', event);
          onStarted(event.plan.runId);
        } else if (event.type === 'attempt-started') {
          emit('suites:progress', { type: 'attempt-started', runId: event.runId, cellId: event.cellId });
        } else if (event.type === 'attempt-finished') {
          const { runId, cellId, done, total } = event;
          emit('suites:progress', { type: 'attempt-finished', runId, cellId, done, total });
        } else if (event.type === 'cell-finished') {
          emit('suites:progress', event);
        }
      },
    });
    running.delete(result.runId);
    const comparisons: Record<string, RunComparison | null> = {};
    for (const suite of result.suites) {
      const previous = await store.previous(suite.file);
      comparisons[basename(suite.file)] = previous ? compareRuns(previous, suite) : null;
    }
    await store.save(result);
    const { suites: _suites, ...rest } = result;
    const finished: SuitesProgress = { type: 'run-finished', result: rest, comparisons };
    emit('suites:progress', finished);
  };

  return {
    // The core reads, watches and writes in the folder opened here, so it is one the user chose:
    // in the desktop app through the native chooser only; in the browser a typed path inside the
    // home folder (suite-folder.ts, checkTypedFolder).
    'suites:open': async ({ path }) => {
      let dir: string;
      if (transport === 'electron') {
        if (path !== undefined) {
          throw new CoreError(
            'BAD_INPUT',
            'In the desktop app a folder is opened with Choose folder…; a typed path is for the console in a browser.',
          );
        }
        if (!chooseFolder) throw new CoreError('BAD_INPUT', 'This window has no folder chooser.');
        const chosen = await chooseFolder();
        if (chosen === undefined) return null;
        dir = await checkFolder(chosen);
      } else {
        const home = homeDir ?? homedir();
        if (path === undefined || path.trim() === '') {
          throw new CoreError(
            'BAD_INPUT',
            `Type the path of a folder of suite files inside your home folder (${home}); a relative path starts there.`,
          );
        }
        dir = await checkTypedFolder(path, home);
      }
      const listing = await listFolder(dir);
      await stopWatching?.();
      folder = dir;
      stopWatching = watchFolder(dir, () => {
        if (folder !== dir) return;
        listFolder(dir).then(
          (next) => emit('suites:changed', next),
          (error: unknown) => core.appLog.error(`suites: cannot list ${dir}: ${String(error)}`),
        );
      });
      return listing;
    },
    'suites:list': async () => (folder ? listFolder(folder) : null),
    'suites:run': async ({ file, caseKey, concurrency }) => {
      const suites = await load(file, caseKey);
      const runs = suites.map((suite) => ({
        suite,
        targets: suiteTargets(suite, { resolveProfile: (name) => core.profile(name) }),
      }));
      const controller = new AbortController();
      // The run id is the plan's; wait for it so the screen can cancel at once.
      return new Promise((resolve, reject) => {
        run(runs, controller, (runId) => resolve({ runId }), concurrency).catch((error: unknown) => {
          core.appLog.error(`suites: the run failed: ${String(error)}`);
          reject(error);
        });
      });
    },
    'suites:cancel': async ({ runId }) => {
      const controller = running.get(runId);
      controller?.abort();
      return { cancelled: controller !== undefined };
    },
    'suites:runs': async ({ file }) => store.summaries(suitePath(openFolder(), file)),
    'suites:runGet': async ({ file, runId }) =>
      (await store.get(suitePath(openFolder(), file), runId)) ?? null,
    'suites:compare': async ({ file, runId, slowerPercent }) => {
      const path = suitePath(openFolder(), file);
      const [current, previous] = await Promise.all([store.get(path, runId), store.previous(path, runId)]);
      return current && previous ? compareRuns(previous, current, slowerPercent) : null;
    },
    'suites:saveCase': async ({ file, name, ...observed }) => {
      const path = suitePath(openFolder(), file);
      const saved = await saveCase(path, { ...observed, agent: observed.agent }, name);
      return { file, caseName: saved.caseName };
    },
  };
}
