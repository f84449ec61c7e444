// A `results.json` written by `--reporter json`, read back as a baseline: often another machine's
// (a CI artifact), so it is hostile input. Its size is capped before it is read, its shape is
// checked for the parts a diff reads (anything else is kept as it came), and what it says is masked
// like any reply before it reaches an output (output-guard.ts).
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { KeptRun } from '../../../shared/run-history';
import { CoreError } from '../core-error';
import { redactValue } from '../redact';

/** Far above a run of thousands of cases with their replies; a bigger file is refused unread. */
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;

const Status = z.enum(['passed', 'failed', 'cancelled', 'skipped']);
const Step = z.looseObject({
  state: z.enum(['done', 'skipped', 'cancelled']),
  reply: z.string(),
  ttftMs: z.number().nonnegative().optional(),
  totalMs: z.number().nonnegative().optional(),
});
const Cell = z.looseObject({
  caseKey: z.string(),
  caseName: z.string(),
  target: z.looseObject({
    key: z.string(),
    profileId: z.string(),
    profileName: z.string(),
    agent: z.string().optional(),
  }),
  status: Status,
  attempts: z.array(z.looseObject({ repeat: z.number(), status: Status, steps: z.array(Step) })),
  stats: z.looseObject({ judgeScore: z.number().optional() }),
});
const Results = z.looseObject({
  runId: z.string().max(200),
  status: z.enum(['passed', 'failed', 'cancelled']),
  startedAt: z.number(),
  durationMs: z.number().optional(),
  suites: z.array(z.looseObject({ file: z.string(), name: z.string(), cells: z.array(Cell) })),
});

export async function readResultsFile(path: string): Promise<KeptRun> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new CoreError('BAD_INPUT', `${path}: no such results file.`);
  if (info.size > MAX_RESULTS_BYTES) {
    throw new CoreError(
      'BAD_INPUT',
      `${path} is ${info.size} bytes; a results file may be up to ${MAX_RESULTS_BYTES} bytes.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CoreError('BAD_INPUT', `${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = Results.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CoreError(
      'BAD_INPUT',
      `${path} is not a results file of \`agent-console test --reporter json\`: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  const run = redactValue(parsed.data) as unknown as KeptRun;
  return {
    ...run,
    durationMs: run.durationMs ?? 0,
    totals: run.totals ?? { attempts: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0 },
    rateLimited: run.rateLimited ?? 0,
    where: run.where ?? { profiles: [] },
    what: run.what ?? { files: [] },
  };
}
