// The agent test suite file (docs/architecture.md): one suite per YAML file, reviewed in pull
// requests like code. This zod schema is the one description of the format: the loader validates
// with it (electron/core/suites/suite-loader.ts names the file, line and field of every problem) and
// schemas/agent-test-suite.schema.json is exported from it for editors.
import { z } from 'zod';

/**
 * Text the user writes. YAML reads `contains: 4711` as a number and `equals: yes` as a string, so
 * numbers and booleans are accepted and taken as written in their plain form (quote a value such
 * as `1.50` that must be kept exactly).
 */
const Text = z
  .union([z.string(), z.number(), z.boolean()])
  .transform((value) => String(value))
  .meta({
    description:
      'Text; {{name}} takes a variable, {{env.NAME}} an environment variable the suite lists under env:.',
  });

const VAR_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The environment variables a suite file may read (`{{env.NAME}}`), listed at its top so a reviewer
 * sees them: a suite file may come from a pull request, and without this list it could send any
 * variable of the CI job to the service. Never the one that holds the API key (the loader refuses it).
 */
const EnvList = z
  .array(
    z
      .string()
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]*$/,
        'An environment variable name is letters, digits and _, and does not start with a digit.',
      ),
  )
  .meta({
    description:
      'The environment variables this suite reads with {{env.NAME}}; their values are masked in every output. Never AGENT_API_KEY.',
  });
/** The largest generated message (`fill`): well past the service's 100 KB limit, far from exhausting memory. */
const MAX_FILL_BYTES = 10 * 1024 * 1024;

const Fill = z
  .strictObject({
    fill: z.string().min(1).meta({ description: 'Text repeated to build the message.' }),
    bytes: z
      .int()
      .min(1)
      .max(MAX_FILL_BYTES)
      .meta({ description: 'Length of the message in UTF-8 bytes (never splitting a character).' }),
  })
  .meta({ description: 'A generated message, e.g. {fill: "a", bytes: 102401} for one byte over 100 KB.' });

const Message = z.union([Text, Fill]);

const RegexSpec = z.union([
  z.string().min(1),
  z.strictObject({
    pattern: z.string().min(1),
    flags: z
      .string()
      .regex(
        /^[dimsuy]*$/,
        'Regex flags are letters among d, i, m, s, u and y (v’s set notation has no linear-time engine).',
      )
      .optional(),
  }),
]);

const Millis = z.number().positive();

/** Who grades: an agent on the service (slug or id) and, optionally, the profile it is reached by. */
const GRADER_FIELDS = {
  agent: z.string().min(1).optional().meta({
    description: 'The grading agent (slug or id); default: the suite’s `grader.agent`.',
  }),
  profile: z.string().min(1).optional().meta({
    description:
      'The profile the grader is reached by; default: the suite’s `grader.profile`, else the target’s.',
  }),
};

const Judge = z
  .strictObject({
    rubric: Text.meta({ description: 'What a good reply does, in words the grader reads.' }),
    ...GRADER_FIELDS,
    pass: z
      .int()
      .min(1)
      .max(5)
      .optional()
      .meta({ description: 'The lowest score (1–5) that passes (default 4).' }),
  })
  .meta({ description: 'A grading agent scores the reply 1–5 against the rubric.' });

const SimilarTo = z
  .strictObject({
    text: Text.meta({ description: 'A reply that means what the reply should mean.' }),
    min: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .meta({ description: 'The lowest similarity (score ÷ 5) that passes (default 0.8).' }),
    ...GRADER_FIELDS,
  })
  .meta({ description: 'A grading agent scores how close the reply’s meaning is to this text.' });

/**
 * A fact a simulated user said (an order number, a name) that the agent must repeat in a later
 * reply: the conversation's memory, checked over the whole transcript (README, "Simulated
 * conversations").
 */
const RememberedFact = z
  .strictObject({
    fact: Text.meta({ description: 'Text the simulated user said, e.g. an order number.' }),
    'from-turn': z.int().min(1).optional().meta({
      description: 'The turn whose user message says it (default: the first that does).',
    }),
  })
  .meta({ description: 'The agent repeats a fact the simulated user said, in a later turn’s reply.' });

/** Every assertion, each with what it checks (shown by editors through the JSON Schema). */
const ASSERTION_SHAPE = {
  contains: Text.optional().meta({ description: 'The reply contains this text (case-sensitive).' }),
  'not-contains': Text.optional().meta({ description: 'The reply does not contain this text.' }),
  equals: Text.optional().meta({ description: 'The reply is exactly this text.' }),
  regex: RegexSpec.optional().meta({
    description:
      'The reply matches this regular expression, JavaScript syntax without lookaround or backreferences (a pattern, or {pattern, flags}).',
  }),
  'starts-with': Text.optional().meta({ description: 'The reply starts with this text.' }),
  json: z
    .union([z.literal(true), z.strictObject({ schema: z.record(z.string(), z.unknown()) })])
    .optional()
    .meta({
      description:
        'The reply (or its ```json fenced block) parses as JSON; with {schema: …} it also matches that JSON Schema.',
    }),
  'max-length': z
    .int()
    .min(0)
    .optional()
    .meta({ description: 'The reply is at most this many characters (Unicode code points).' }),
  'min-length': z
    .int()
    .min(0)
    .optional()
    .meta({ description: 'The reply is at least this many characters (Unicode code points).' }),
  'ttft-ms': Millis.optional().meta({
    description: 'Streamed: the first chunk arrives within this many milliseconds of the request.',
  }),
  'total-ms': Millis.optional().meta({
    description: 'The whole reply arrives within this many milliseconds of the request.',
  }),
  'min-chunks': z
    .int()
    .min(0)
    .optional()
    .meta({ description: 'Streamed: at least this many content chunks arrive.' }),
  'max-gap-ms': Millis.optional().meta({
    description: 'Streamed: no gap between two chunks is longer than this many milliseconds.',
  }),
  completes: z.boolean().optional().meta({
    description:
      'Streamed: true = the stream ends with [DONE] and no stream_error; false = it does not (an error or a cut).',
  }),
  status: z
    .int()
    .min(100)
    .max(599)
    .optional()
    .meta({ description: 'The HTTP status of the reply, e.g. 404 for a stopped agent.' }),
  code: z.string().min(1).optional().meta({
    description:
      'The error code, case-insensitive: AGENT_NOT_FOUND, BAD_REQUEST, AGENT_ERROR, stream_error, STREAM_INCOMPLETE…',
  }),
  remembers: z
    .union([Text, z.strictObject({ turn: z.int().min(1) }), RememberedFact])
    .optional()
    .meta({
      description:
        'A later turn refers to an earlier one: the reply contains this text, which an earlier turn said, or {turn: N}: the whole message of turn N. In a simulated conversation: {fact, from-turn?}, a fact the user said repeated in a later reply of the agent.',
    }),
  'turns-at-most': z.int().min(1).optional().meta({
    description: 'A simulated conversation reaches its `until` in at most this many turns.',
  }),
  judge: Judge.optional(),
  'similar-to': SimilarTo.optional(),
} as const;

export type AssertionKind = keyof typeof ASSERTION_SHAPE;
export const ASSERTION_KINDS = Object.keys(ASSERTION_SHAPE) as AssertionKind[];
/** Assertions that only a streamed reply can answer. */
export const STREAM_ONLY_KINDS: readonly AssertionKind[] = [
  'ttft-ms',
  'min-chunks',
  'max-gap-ms',
  'completes',
];

export const SuiteAssertion = z
  .strictObject(ASSERTION_SHAPE)
  .refine((a) => Object.keys(a).length > 0, {
    message: `An assertion names one of: ${ASSERTION_KINDS.join(', ')}.`,
  })
  .meta({ minProperties: 1, description: 'One assertion per entry, e.g. `- contains: hello`.' });
export type SuiteAssertion = z.output<typeof SuiteAssertion>;

const Assertions = z.array(SuiteAssertion);

const SuiteStep = z.strictObject({
  message: Message,
  assert: Assertions.optional(),
});

/** The turns a simulated conversation may take at most: a runaway simulation must end. */
const MAX_SIMULATED_TURNS = 50;

const Simulate = z
  .strictObject({
    agent: z.string().min(1).meta({
      description: 'The agent (slug or id) that plays the user, e.g. the mock’s `customer`.',
    }),
    profile: z.string().min(1).optional().meta({
      description: 'The profile the simulating agent is reached by (default: the target’s).',
    }),
    goal: Text.meta({ description: 'What the simulated user wants, in words the simulating agent reads.' }),
    persona: Text.optional().meta({ description: 'Who the simulated user is and how they write.' }),
    'max-turns': z.int().min(1).max(MAX_SIMULATED_TURNS).meta({
      description: 'The turns the conversation may take; reaching them without `until` fails the case.',
    }),
    until: z
      .strictObject({
        contains: Text.optional().meta({ description: 'The agent’s reply contains this text.' }),
        regex: RegexSpec.optional().meta({
          description: 'The agent’s reply matches this regular expression.',
        }),
      })
      .refine((u) => Object.keys(u).length === 1, { message: 'until names one of: contains, regex.' })
      .meta({ description: 'The goal is reached when a reply of the agent under test says this.' }),
    prompt: z.string().min(1).optional().meta({
      description:
        'The prompt sent to the simulating agent each turn: {{goal}}, {{persona}} and {{conversation}} are filled in (default: the documented template).',
    }),
  })
  .meta({
    description:
      'An agent on the service plays the user for up to max-turns turns against the agent under test (README, "Simulated conversations").',
  });

const VarValue = z.union([z.string(), z.number(), z.boolean()]).transform((value) => String(value));
const VarName = z.string().regex(VAR_NAME_PATTERN, 'A variable name is letters, digits, _ and -.');
const VarTable = z.record(VarName, VarValue);

const SuiteCase = z
  .strictObject({
    name: z.string().min(1).meta({
      description:
        'The case name, shown in reports: {{name}} takes a variable; it cannot read the environment.',
    }),
    message: Message.optional().meta({ description: 'A one-turn case: the message (or use steps).' }),
    assert: Assertions.optional().meta({
      description:
        'Assertions on the reply to `message`; with simulate, on the whole conversation (judge, similar-to, turns-at-most, remembers).',
    }),
    steps: z
      .array(SuiteStep)
      .min(1)
      .optional()
      .meta({ description: 'Turns in one session (or one thread with thread: true).' }),
    stream: z.boolean().optional().meta({ description: 'Stream the replies (default: true).' }),
    repeat: z.int().min(1).max(1000).optional().meta({ description: 'Runs per target (default 1).' }),
    thread: z
      .boolean()
      .optional()
      .meta({ description: 'Run the turns in a new thread instead of a chat session (not streamed).' }),
    title: Text.optional().meta({
      description: 'The thread title (with thread: true); like the name, it cannot read the environment.',
    }),
    vars: z
      .array(VarTable)
      .min(1)
      .optional()
      .meta({ description: 'A table of inputs: the case runs once per row.' }),
    simulate: Simulate.optional(),
    'each-turn': Assertions.optional().meta({
      description: 'With simulate: assertions on every reply of the agent under test.',
    }),
    'vars-file': z
      .string()
      .regex(/\.(csv|jsonl)$/i, 'A vars-file is a .csv or a .jsonl file.')
      .optional()
      .meta({
        description:
          'A dataset beside the suite file (.csv with a header row of variable names, or .jsonl): the case runs once per row.',
      }),
  })
  .meta({
    description:
      'A case: `message` + `assert`, `steps`, or `simulate` (with `each-turn`, and `assert` over the whole conversation).',
  });

export const SuiteFile = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    env: EnvList.optional(),
    targets: z
      .strictObject({
        agents: z
          .array(z.string().min(1))
          .min(1)
          .optional()
          .meta({ description: 'Agent slugs or ids (default: the service’s default agent).' }),
        profiles: z
          .array(z.string().min(1))
          .min(1)
          .optional()
          .meta({ description: 'Profile names (default: the active profile).' }),
      })
      .optional(),
    defaults: z
      .strictObject({
        stream: z.boolean().optional(),
        repeat: z.int().min(1).max(1000).optional(),
        thread: z.boolean().optional(),
      })
      .optional()
      .meta({ description: 'Values every case takes unless it says otherwise.' }),
    vars: VarTable.optional().meta({ description: 'Variables every case can use ({{name}}).' }),
    grader: z
      .strictObject({
        agent: z.string().min(1).optional().meta({
          description:
            'The grading agent (slug or id) of every judge that names none, e.g. the mock’s `grader`.',
        }),
        profile: z.string().min(1).optional().meta({
          description: 'The profile graders are reached by (default: the target’s).',
        }),
        prompt: z.string().min(1).optional().meta({
          description:
            'The prompt sent to the grader: {{rubric}}, {{message}}, {{reply}} and {{conversation}} are filled in (default: the documented template).',
        }),
      })
      .optional()
      .meta({ description: 'How `judge` and `similar-to` assertions are graded.' }),
    'min-kappa': z.number().min(-1).max(1).optional().meta({
      description:
        'With human labels (--labels): a judge whose Cohen’s κ against them is lower marks the run not trustworthy.',
    }),
    cases: z.array(SuiteCase).min(1),
  })
  .meta({
    title: 'Agent Console test suite',
    description: 'One suite per file: agent test cases with stream-aware assertions (agent-console test).',
  });
export type SuiteFile = z.output<typeof SuiteFile>;

/** The JSON Schema editors read (schemas/agent-test-suite.schema.json is this, written out). */
export function suiteJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(SuiteFile, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}
