// The CLI's commands, each a thin layer over the core: the same vault, profiles, limiter, client
// and transcripts the app uses.
import type { ApiClient } from '../core/api-client';
import type { ConsoleCore } from '../core/console-core';
import type { Profile } from '../core/profiles';
import { SESSION_ID_PATTERN } from '../../shared/api';
import { knownAgentStatus, knownConversationStatus, lacksTimeZone } from '../../shared/known-values';
import { table, UsageError } from './output';
import { intOption, print, readStdin, stringOption, type Io, type Options } from './command-io';

/** Says on stderr when a call waits for the rate limiter (for more than a moment), so a pause never looks like a hang. */
export function reportWaits(core: ConsoleCore, profile: Profile, io: Pick<Io, 'err'>): () => void {
  const key = core.vault.get(profile.keyId);
  if (!key) return () => undefined;
  const limiter = core.limiters.for(key.id, key.tier);
  let timer: NodeJS.Timeout | undefined;
  const say = (): void => {
    timer = undefined;
    const state = limiter.state();
    if (state.queued === 0) return;
    const until = state.pausedUntil ?? state.resetAt;
    const inS = until ? Math.max(0, Math.ceil((until - core.clock.now()) / 1000)) : 0;
    const why = state.pausedUntil ? 'paused after a 429' : `all ${state.limit} requests of this minute used`;
    io.err(`Waiting for the rate limit (${why}; ${state.queued} queued; next slot in ${inS} s)…`);
    timer = setTimeout(say, 5_000);
  };
  const unsubscribe = limiter.subscribe((state) => {
    if (state.queued > 0 && !timer) timer = setTimeout(say, 500);
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}

async function withClient<T>(
  core: ConsoleCore,
  options: Options,
  io: Io,
  run: (client: ApiClient, profile: Profile) => Promise<T>,
): Promise<T> {
  const profile = core.profile(stringOption(options, 'profile'));
  const stop = reportWaits(core, profile, io);
  try {
    return await run(core.client(profile), profile);
  } finally {
    stop();
  }
}

const ago = (iso: string): string =>
  // A timestamp without a zone names no instant: shown as it came, saying so (docs/security.md).
  lacksTimeZone(iso) ? `${iso} (no zone)` : iso.replace('T', ' ').slice(0, 16);
/** A status this console does not know is shown as it came, labelled (docs/security.md). */
const shownStatus = (status: string, known: boolean): string => (known ? status : `${status} (unknown)`);

export function agentsCommand(core: ConsoleCore, options: Options, io: Io) {
  return withClient(core, options, io, async (client) => {
    const limit = intOption(options, 'limit');
    const offset = intOption(options, 'offset');
    const page = await client.listAgents({ limit, offset }, { signal: io.signal });
    print(io, page, () =>
      [
        table(
          page.agents.map((a) => ({
            ...a,
            status: shownStatus(a.status, knownAgentStatus(a.status) !== undefined),
            model: a.model?.primary ?? '—',
            fallback: a.model?.fallback ?? '—',
            deployed_at:
              a.deployed_at && lacksTimeZone(a.deployed_at) ? `${a.deployed_at} (no zone)` : a.deployed_at,
          })),
          ['slug', 'name', 'status', 'model', 'fallback', 'deployed_at'],
        ),
        `${page.agents.length} of ${page.total}${page.has_more ? ' (more: use --offset)' : ''}`,
      ].join('\n'),
    );
  });
}

export function conversationsCommand(core: ConsoleCore, options: Options, io: Io) {
  return withClient(core, options, io, async (client) => {
    const page = await client.listConversations(
      {
        agent: stringOption(options, 'agent'),
        limit: intOption(options, 'limit'),
        offset: intOption(options, 'offset'),
      },
      { signal: io.signal },
    );
    print(io, page, () =>
      [
        table(
          page.conversations.map((c) => ({
            ...c,
            status: shownStatus(c.status, knownConversationStatus(c.status)),
            started_at: ago(c.started_at),
            last_message_at: ago(c.last_message_at),
          })),
          ['session_id', 'agent', 'message_count', 'status', 'started_at', 'last_message_at'],
        ),
        `${page.conversations.length} of ${page.total} from offset ${page.offset}`,
      ].join('\n'),
    );
  });
}

export function threadsCommand(
  core: ConsoleCore,
  sub: string | undefined,
  args: string[],
  options: Options,
  io: Io,
) {
  return withClient(core, options, io, async (client, profile) => {
    switch (sub) {
      case 'list':
      case undefined: {
        const { threads } = await client.listThreads({ signal: io.signal });
        const sorted = [...threads].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
        return print(io, sorted, () =>
          table(
            sorted.map((t) => ({ ...t, updated_at: ago(t.updated_at) })),
            ['id', 'title', 'agent', 'message_count', 'updated_at'],
          ),
        );
      }
      case 'create': {
        const message = stringOption(options, 'message') ?? args.join(' ');
        if (!message) throw new UsageError('threads create needs --message (or the message as arguments).');
        const title = stringOption(options, 'title');
        const agent = stringOption(options, 'agent');
        const created = await core.threads.create({ profile, message, title, agent }, { signal: io.signal });
        return print(
          io,
          created,
          () => `Thread ${created.thread.id} "${created.thread.title}"\n${created.response}`,
        );
      }
      case 'send': {
        const [threadId, ...words] = args;
        const message = stringOption(options, 'message') ?? words.join(' ');
        if (!threadId || !message) throw new UsageError('threads send needs a thread id and a message.');
        const reply = await core.threads.send({ profile, threadId, message }, { signal: io.signal });
        return print(io, reply, () => reply.response);
      }
      default:
        throw new UsageError(`Unknown threads command "${sub}": use list, create or send.`);
    }
  });
}

export function chatCommand(core: ConsoleCore, args: string[], options: Options, io: Io) {
  return withClient(core, options, io, async (client, profile) => {
    let message = args.join(' ');
    if ((message === '' || message === '-') && !io.stdin.isTTY)
      message = (await readStdin(io.stdin)).replace(/\n$/, '');
    if (!message) throw new UsageError('chat needs a message: agent-console chat --agent echo "hello".');
    const given = stringOption(options, 'session');
    if (given !== undefined && !SESSION_ID_PATTERN.test(given)) {
      throw new UsageError('--session must be 1 to 128 letters or digits.');
    }
    const sessionId = given ?? newSessionId();
    const agent = stringOption(options, 'agent');
    const request = { profile, message, agent, session_id: sessionId, startedHere: given === undefined };

    if (options.stream === false) {
      const reply = await core.chat.send(request, { signal: io.signal });
      return print(io, { ...reply, session_id: sessionId }, () => reply.response);
    }
    const { stream, recorded } = await core.chat.stream(request, { signal: io.signal });
    try {
      // One write per network read, not per chunk.
      for await (const batch of stream.batches()) {
        if (!io.json) process.stdout.write(batch.map((chunk) => chunk.content).join(''));
      }
    } catch (error) {
      if (!io.json && stream.text) process.stdout.write('\n');
      await recorded;
      throw error;
    }
    await recorded;
    const record = stringOption(options, 'record');
    if (record) {
      const saved = await core.fixtures.saveFromFrames({
        name: record,
        agent: agent ?? 'default',
        frames: stream.frames,
      });
      io.err(
        `Recorded as fixture ${saved.id} (${saved.chunkCount} chunks): agent-console mock fixture assign <agent> ${saved.id}`,
      );
    }
    const summary = {
      response: stream.text,
      request_id: stream.requestId,
      session_id: sessionId,
      chunks: stream.chunkCount,
      timing: stream.timing,
    };
    if (io.json) return print(io, summary, () => '');
    process.stdout.write('\n');
    io.err(
      `— ${stream.chunkCount} chunks, first after ${stream.timing.firstChunkMs ?? '?'} ms, ${stream.timing.totalMs} ms in all; ` +
        `${stream.requestId ?? ''}; continue with --session ${sessionId}`,
    );
  });
}

function newSessionId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

export function usageCommand(core: ConsoleCore, options: Options, io: Io) {
  return withClient(core, options, io, async (client) => {
    const { usage } = await client.usage(intOption(options, 'days'), { signal: io.signal });
    print(io, usage, () =>
      [
        `${usage.total_requests} requests, ${usage.total_tokens} tokens from ${usage.period_start.slice(0, 10)} to ${usage.period_end.slice(0, 10)}`,
        table(usage.by_agent, ['agent', 'requests', 'tokens']),
      ].join('\n\n'),
    );
  });
}

export function healthCommand(core: ConsoleCore, options: Options, io: Io) {
  return withClient(core, options, io, async (client) => {
    const show = (h: Awaited<ReturnType<ApiClient['health']>>) =>
      print(
        io,
        h,
        () =>
          `${h.timestamp}  ${h.status.toUpperCase()}  ` +
          Object.entries(h.components)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ') +
          `  up ${h.uptime_seconds}s  v${h.version}`,
      );
    if (!options.watch) return show(await client.health({ signal: io.signal }));
    const every = intOption(options, 'interval') ?? 60;
    if (every < 10) throw new UsageError('--interval must be at least 10 seconds.');
    while (!io.signal.aborted) {
      try {
        show(await client.health({ signal: io.signal }));
      } catch (error) {
        if (io.signal.aborted) break;
        io.err(`health check failed: ${(error as Error).message}`);
      }
      await core.clock.sleep(every * 1000, io.signal).catch(() => undefined);
    }
  });
}
