// A case's `simulate:` block planned (README, "Simulated conversations"): the simulating agent, its
// goal, persona and prompt, `until`, the checks of every reply (`each-turn`) and of the whole
// conversation (`assert`), with the rules a schema cannot say reported where they were written.
import type { SuiteAssertion, SuiteFile } from '../../../shared/suite';
import type { Check, PlannedSimulation } from '../../../shared/suite-run';
import { compileLinearRegex } from './linear-regex';
import { DEFAULT_SIMULATE_PROMPT, simulatePromptProblem } from './simulate-prompt';

/** Plans a list of assertions; `vet` sees each check with a way to report a problem at its field. */
export type PlanChecks = (
  list: readonly SuiteAssertion[],
  path: PropertyKey[],
  vet?: (check: Check, report: (message: string) => void) => void,
) => Check[];

interface SimulationExpansion {
  problem(path: PropertyKey[], message: string, key?: string): void;
  /** The text with its variables substituted (problems at path/key). */
  text(value: string, path: PropertyKey[], key: string): string;
  lineAt(path: PropertyKey[], key?: string): number;
  planChecks: PlanChecks;
}

/** The kinds that judge a whole conversation; every other kind checks one reply (`each-turn`). */
const CONVERSATION_KINDS: readonly Check['kind'][] = ['judge', 'similar-to', 'turns-at-most', 'remembers'];

export const ONLY_SIMULATED =
  'turns-at-most and remembers { fact } judge a whole simulated conversation: they go in the `assert` of a case with `simulate`';

export function expandSimulation(
  c: SuiteFile['cases'][number],
  base: PropertyKey[],
  x: SimulationExpansion,
): PlannedSimulation {
  const spec = c.simulate as NonNullable<SuiteFile['cases'][number]['simulate']>;
  const at = [...base, 'simulate'];
  for (const other of ['message', 'steps'] as const) {
    if (c[other] !== undefined) {
      x.problem(base, `A simulated conversation writes its own messages: remove \`${other}\`.`, other);
    }
  }
  const prompt = spec.prompt ?? DEFAULT_SIMULATE_PROMPT;
  const promptProblem = simulatePromptProblem(prompt);
  if (promptProblem) x.problem(at, promptProblem, 'prompt');
  const untilPath = [...at, 'until'];
  const until: PlannedSimulation['until'] =
    spec.until.regex !== undefined
      ? untilRegex(spec.until.regex, untilPath, x)
      : {
          kind: 'contains',
          line: x.lineAt(untilPath, 'contains'),
          text: x.text(spec.until.contains ?? '', untilPath, 'contains'),
        };
  const eachTurn = x.planChecks(c['each-turn'] ?? [], [...base, 'each-turn'], (check, report) => {
    if (check.kind === 'turns-at-most' || check.kind === 'remembers') {
      report(
        `${check.kind} judges the whole conversation: it goes in the case's \`assert\`, not \`each-turn\`.`,
      );
    }
  });
  const conversation = x.planChecks(c.assert ?? [], [...base, 'assert'], (check, report) => {
    if (!CONVERSATION_KINDS.includes(check.kind)) {
      report(
        `A simulated conversation's \`assert\` judges the whole conversation (${CONVERSATION_KINDS.join(', ')}); put checks of each reply under \`each-turn\`.`,
      );
    } else if (check.kind === 'remembers' && !('fact' in check)) {
      report(
        'In a simulated conversation, remembers names the fact the user says: { fact: "4711", from-turn: 1 }.',
      );
    } else if (
      check.kind === 'remembers' &&
      check.fromTurn !== undefined &&
      check.fromTurn >= spec['max-turns']
    ) {
      report(
        `remembers from turn ${check.fromTurn}: a later reply must come, and the conversation has at most ${spec['max-turns']} turns.`,
      );
    } else if (check.kind === 'turns-at-most' && check.turns > spec['max-turns']) {
      report(
        `turns-at-most ${check.turns} is more than max-turns (${spec['max-turns']}): it can never fail.`,
      );
    }
  });
  return {
    line: x.lineAt(base, 'simulate'),
    agent: spec.agent,
    ...(spec.profile !== undefined ? { profile: spec.profile } : {}),
    goal: x.text(spec.goal, at, 'goal'),
    persona: spec.persona !== undefined ? x.text(spec.persona, at, 'persona') : '',
    maxTurns: spec['max-turns'],
    prompt,
    until,
    eachTurn,
    conversation,
  };
}

function untilRegex(
  spec: NonNullable<NonNullable<SuiteFile['cases'][number]['simulate']>['until']['regex']>,
  path: PropertyKey[],
  x: SimulationExpansion,
): PlannedSimulation['until'] {
  const { pattern, flags = '' } = typeof spec === 'string' ? { pattern: spec } : spec;
  const filled = x.text(pattern, path, 'regex');
  try {
    compileLinearRegex(filled, flags);
  } catch (error) {
    x.problem(path, (error as Error).message, 'regex');
  }
  return { kind: 'regex', line: x.lineAt(path, 'regex'), pattern: filled, flags };
}
