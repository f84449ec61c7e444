// `agent-console mcp`: the console as a Model Context Protocol server, so a coding agent in an editor
// reaches the service the way the console does — through the profiles, the keys in the keychain and
// each key's one limiter — without ever holding a key. Every tool is a thin call on the core the
// CLI and the window use; a tool never takes a key as an argument, and what it returns leaves the
// process through the CLI's output guard like every other byte on stdout (docs/security.md).
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError, describeError } from '../core/api-error';
import type { ConsoleCore } from '../core/console-core';
import { guardText, guardValue } from '../core/output-guard';
import { PAGE_LIMIT, USAGE_DAYS } from '../../shared/api';
import {
  MAX_MESSAGE_BYTES,
  MAX_SESSION_ID_LENGTH,
  MAX_THREAD_TITLE_LENGTH,
  SESSION_ID_PATTERN,
} from '../../shared/api-limits';

import { runSuite, type Extra } from './mcp-suites';

const profileArg = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('The profile to use, by name or id; the active profile when left out.');
const agentArg = z.string().min(1).max(200).describe('The agent, by slug or id.');
const messageArg = z
  .string()
  .min(1)
  .max(MAX_MESSAGE_BYTES)
  .describe('The message: at most 100 KB of UTF-8, as the service allows.');
/** A page of a list, within the service's bounds. */
const pageArgs = {
  limit: z.number().int().min(PAGE_LIMIT.min).max(PAGE_LIMIT.max).optional(),
  offset: z.number().int().min(0).optional(),
};
/** read_history answers a page, never a whole history: a year of it would not fit a model's context. */
const HISTORY_PAGE = 50;
const HISTORY_PAGE_MAX = 200;
const sessionArg = z
  .string()
  .regex(SESSION_ID_PATTERN, `Letters and digits, at most ${MAX_SESSION_ID_LENGTH}.`);

/** A tool's answer: its value as JSON text, and the same as structured content. */
function answer(value: unknown): CallToolResult {
  const safe = guardValue(value) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(safe, null, 2) }], structuredContent: safe };
}

/**
 * A failure as a tool error the calling agent can act on: the service's code and words, and for a
 * rate limit the wait (the limiter already waited what it could; a message is never re-sent).
 */
function failure(error: unknown): CallToolResult {
  const details =
    error instanceof ApiError
      ? {
          code: error.code,
          status: error.status,
          ...(error.retryAfterS !== undefined ? { retry_after_s: error.retryAfterS } : {}),
        }
      : undefined;
  return {
    isError: true,
    content: [{ type: 'text', text: guardText(describeError(error)) }],
    ...(details ? { structuredContent: guardValue(details) } : {}),
  };
}

/** Runs a tool's body; whatever it throws becomes a tool error rather than a protocol error. */
async function tool(run: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return answer(await run());
  } catch (error) {
    return failure(error);
  }
}

const READS = { readOnlyHint: true, openWorldHint: true } as const;
/** Sends a message to an agent: a side effect the service records, not undone by calling again. */
const SENDS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
} as const;

export function mcpServer(core: ConsoleCore, version: string): McpServer {
  const server = new McpServer({ name: 'agent-console', version });
  const clientOf = (profile?: string) => core.client(core.profile(profile));

  server.registerTool(
    'list_agents',
    {
      title: 'List agents',
      description: 'The agents of the service a profile points at, a page at a time.',
      inputSchema: {
        profile: profileArg,
        ...pageArgs,
      },
      annotations: READS,
    },
    ({ profile, limit, offset }) =>
      tool(() =>
        clientOf(profile).listAgents({
          ...(limit !== undefined ? { limit } : {}),
          ...(offset !== undefined ? { offset } : {}),
        }),
      ),
  );

  server.registerTool(
    'chat',
    {
      title: 'Chat with an agent',
      description:
        'Sends one message to an agent and returns its whole reply with its timing. The reply streams: ' +
        'a client that asks for progress hears each piece as it arrives. Give the same session_id to continue a conversation.',
      inputSchema: {
        message: messageArg,
        agent: agentArg.optional(),
        session_id: sessionArg
          .optional()
          .describe('A session to continue; a new one is made when left out (returned as session_id).'),
        profile: profileArg,
      },
      annotations: SENDS,
    },
    ({ message, agent, session_id, profile }, extra) =>
      tool(() => chat(core, { message, agent, session_id, profile }, extra)),
  );

  server.registerTool(
    'create_thread',
    {
      title: 'Start a thread',
      description: 'Starts a thread with a first message and returns the thread and the agent’s reply.',
      inputSchema: {
        message: messageArg,
        agent: agentArg.optional(),
        title: z.string().min(1).max(MAX_THREAD_TITLE_LENGTH).optional(),
        profile: profileArg,
      },
      annotations: SENDS,
    },
    ({ message, agent, title, profile }) =>
      tool(() => core.threads.create({ message, agent, title, profile: core.profile(profile) })),
  );

  server.registerTool(
    'send_thread_message',
    {
      title: 'Continue a thread',
      description: 'Adds a message to a thread and returns the agent’s reply.',
      inputSchema: {
        thread_id: z.string().min(1).max(200),
        message: messageArg,
        profile: profileArg,
      },
      annotations: SENDS,
    },
    ({ thread_id, message, profile }) =>
      tool(() => core.threads.send({ threadId: thread_id, message, profile: core.profile(profile) })),
  );

  server.registerTool(
    'list_threads',
    {
      title: 'List threads',
      description: 'The service’s threads.',
      inputSchema: { profile: profileArg },
      annotations: READS,
    },
    ({ profile }) => tool(() => clientOf(profile).listThreads()),
  );

  server.registerTool(
    'list_conversations',
    {
      title: 'List conversations',
      description: 'The service’s conversations, newest first, a page at a time, for one agent or all.',
      inputSchema: {
        agent: agentArg.optional(),
        ...pageArgs,
        profile: profileArg,
      },
      annotations: READS,
    },
    ({ agent, limit, offset, profile }) =>
      tool(() =>
        clientOf(profile).listConversations({
          ...(agent !== undefined ? { agent } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(offset !== undefined ? { offset } : {}),
        }),
      ),
  );

  server.registerTool(
    'get_usage',
    {
      title: 'Usage',
      description: 'Requests, tokens and latency per day and per agent over the last days.',
      inputSchema: {
        days: z.number().int().min(USAGE_DAYS.min).max(USAGE_DAYS.max).optional(),
        profile: profileArg,
      },
      annotations: READS,
    },
    ({ days, profile }) => tool(() => clientOf(profile).usage(days)),
  );

  server.registerTool(
    'get_health',
    {
      title: 'Health',
      description: 'The service’s health report: its status, components, uptime and version.',
      inputSchema: { profile: profileArg },
      annotations: READS,
    },
    ({ profile }) => tool(() => clientOf(profile).health()),
  );

  server.registerTool(
    'run_suite',
    {
      title: 'Run agent test suites',
      description:
        'Runs the agent test suites of a file or a folder (its *.yaml and *.yml files), or one case of a file, ' +
        'as `agent-console test` does, and returns each case × target with its status and, for a failure, ' +
        'the assertion, its line, what was expected and what came. A relative path starts in the folder ' +
        'the server was started in. A client that asks for progress hears each finished attempt.',
      inputSchema: {
        path: z.string().min(1).max(4096).describe('A suite file or a folder of them.'),
        case: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('Only this case of the file, by its key ("2", "3.1") or its name.'),
        agents: z
          .array(agentArg)
          .min(1)
          .max(20)
          .optional()
          .describe('Run against these agents instead of the suites’ own.'),
        repeat: z.number().int().min(1).max(100).optional().describe('Run every case this many times.'),
        profile: profileArg.describe(
          'Run against this profile; the suites’ own profiles, else the active one, when left out.',
        ),
      },
      annotations: SENDS,
    },
    (input, extra) => tool(() => runSuite(core, input, extra)),
  );

  server.registerTool(
    'read_history',
    {
      title: 'Local history',
      description:
        'What this console recorded of a session or a thread (the service keeps no message history), ' +
        'a page of its messages: the latest `limit` unless `from` (0 is the first) is given; ' +
        '`total` says how many there are. With neither id given, a page of the sessions and threads ' +
        'it has recorded for the profile, most recent first; `next` is the cursor of the page after.',
      inputSchema: {
        session_id: sessionArg.optional(),
        thread_id: z.string().min(1).max(200).optional(),
        from: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(HISTORY_PAGE_MAX).optional(),
        cursor: z.string().max(400).optional(),
        profile: profileArg,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ session_id, thread_id, from, limit = HISTORY_PAGE, cursor, profile }) =>
      tool(async () => {
        const profileId = core.profile(profile).id;
        if (session_id !== undefined || thread_id !== undefined) {
          const ref =
            session_id !== undefined
              ? { profileId, kind: 'session' as const, id: session_id }
              : { profileId, kind: 'thread' as const, id: thread_id as string };
          return (await core.transcripts.messages(ref, from, limit)) ?? { known: false, ...ref };
        }
        return core.transcripts.list(profileId, undefined, { limit, cursor });
      }),
  );

  return server;
}

/** One chat, streamed: each read's text goes to the client as a progress notification. */
async function chat(
  core: ConsoleCore,
  input: {
    message: string;
    agent?: string | undefined;
    session_id?: string | undefined;
    profile?: string | undefined;
  },
  extra: Extra,
): Promise<unknown> {
  const sessionId = input.session_id ?? randomUUID().replaceAll('-', '');
  const { stream, recorded } = await core.chat.stream(
    {
      profile: core.profile(input.profile),
      message: input.message,
      agent: input.agent,
      session_id: sessionId,
      startedHere: input.session_id === undefined,
    },
    { signal: extra.signal },
  );
  const token = extra._meta?.progressToken;
  let pieces = 0;
  try {
    for await (const batch of stream.batches()) {
      if (token === undefined) continue;
      pieces += batch.length;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: pieces,
          message: guardValue(batch.map((chunk) => chunk.content).join('')),
        },
      });
    }
  } finally {
    await recorded;
  }
  return {
    reply: stream.text,
    session_id: sessionId,
    request_id: stream.requestId,
    chunks: stream.chunkCount,
    first_chunk_ms: stream.timing.firstChunkMs,
    total_ms: stream.timing.totalMs,
  };
}
