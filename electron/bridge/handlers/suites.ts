// suites:… — the Tests screen's calls, each the core's suites facade (electron/core/suites/suites.ts):
// the folder it opened, runs with progress and cancel, kept runs and their comparison, the run
// history and the diff of any two runs, "Save as test case".
import type { DomainHandlers, HandlerContext } from './context';

export function suitesHandlers({
  core,
  emit,
  folderAccess,
  onClose,
}: HandlerContext): DomainHandlers<'suites'> {
  const { suites } = core;
  onClose(suites.onChanged((listing) => emit('suites:changed', listing)));
  onClose(suites.onProgress((progress) => emit('suites:progress', progress)));
  return {
    'suites:open': async ({ path }) => suites.open(path, folderAccess),
    'suites:list': async () => suites.list(),
    'suites:run': async (request) => suites.start(request),
    'suites:cancel': async ({ runId }) => suites.cancel(runId),
    'suites:runs': async ({ file }) => suites.runs(file),
    'suites:runGet': async ({ file, runId }) => suites.storedRun(file, runId),
    'suites:compare': async ({ file, runId, slowerPercent }) => suites.compare(file, runId, slowerPercent),
    'suites:history': async () => suites.history(),
    'suites:historyRun': async ({ runId }) => suites.keptRun(runId),
    'suites:diff': async ({ base, head }) => suites.diffKept(base, head),
    'suites:saveCase': async (request) => suites.saveCase(request),
    'suites:saveConversationCase': async ({ file, kind, id }) =>
      suites.saveConversationCase({ file, transcript: { profileId: core.profile().id, kind, id } }),
    'suites:calibration': async ({ runId }) => suites.calibration(runId),
    'suites:label': async ({ runId, ...label }) => suites.label(runId, label),
    'suites:importHar': async ({ fileName, text }) => suites.importHar(fileName, text),
  };
}
