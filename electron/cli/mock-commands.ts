// `agent-console mock …`: the mock's control room for scripts and CI — the same actions as the Mock
// screen, sent to a running mock (`npm run mock` or `agent-console mock serve`) over its
// /__control path, with the control token the mock keeps in its data folder.
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from '../core/http-agent';
import { readControlToken } from '../../mock/control-token';
import { findRunningEndpoint } from '../../mock/endpoint-file';
import { Fixture } from '../../shared/fixture';
import { ApiError } from '../core/api-error';
import { FixtureStore } from '../core/fixture-store';
import { mockDataDir } from '../core/paths';
import type { Io, Options } from './command-io';
import { table, UsageError } from './output';

interface Target {
  baseUrl: string;
  dispatcher: Agent;
  /** The mock's control token; none from a mock too old to have one (it then asks for none). */
  token: string | undefined;
}

function target(dataDir: string): Target {
  const mockDir = mockDataDir(dataDir);
  const endpoint = findRunningEndpoint(mockDir);
  if (!endpoint) {
    throw new ApiError({
      status: 0,
      code: 'NETWORK',
      message: `No mock is running on ${mockDir}: start one with \`npm run mock\` or \`agent-console mock serve\`.`,
    });
  }
  return {
    baseUrl: endpoint.baseUrl,
    dispatcher: new Agent({ connect: { ca: readFileSync(endpoint.caCertPath) } }),
    token: readControlToken(mockDir),
  };
}

async function control(
  t: Target,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
) {
  const headers: Record<string, string> = t.token ? { authorization: `Bearer ${t.token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(t.dispatcher, `${t.baseUrl}/__control${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  const json = text ? (JSON.parse(text) as unknown) : {};
  if (res.statusCode >= 400) {
    const error = (json as { error?: { code?: string; message?: string } }).error;
    throw new ApiError({
      status: res.statusCode,
      code: error?.code ?? 'MOCK_CONTROL',
      message: error?.message ?? text,
    });
  }
  return json;
}

function numberOption(options: Options, name: string): number | undefined {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(value) || value < 0) {
    throw new UsageError(`--${name} must be a whole number (got "${String(raw)}").`);
  }
  return value;
}

function pick(options: Options, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) if (typeof options[name] === 'string') out[name] = options[name] as string;
  return out;
}

async function fixtureCommand(
  t: Target,
  store: FixtureStore,
  [action, ref, source]: string[],
  options: Options,
  show: (data: unknown, human: () => string) => void,
): Promise<void> {
  switch (action) {
    case 'list':
    case undefined: {
      const fixtures = await store.list();
      return show(fixtures, () =>
        table(fixtures, ['id', 'name', 'agent', 'chunkCount', 'durationMs', 'recordedAt']),
      );
    }
    case 'import': {
      if (!ref) throw new UsageError('mock fixture import needs a file.');
      const saved = await store.importText(readFileSync(ref, 'utf8'));
      return show(saved, () => `Imported "${saved.name}" as ${saved.id} (${saved.chunkCount} chunks).`);
    }
    case 'export': {
      if (!ref) throw new UsageError('mock fixture export needs a fixture id.');
      const { text } = await store.exportText(ref);
      return show(JSON.parse(text), () => text);
    }
    case 'remove': {
      if (!ref) throw new UsageError('mock fixture remove needs a fixture id.');
      const removed = await store.remove(ref);
      return show({ removed }, () => (removed ? `Removed ${ref}.` : `No fixture ${ref}.`));
    }
    case 'assign': {
      if (!ref || !source)
        throw new UsageError('mock fixture assign needs an agent and a fixture id or file.');
      const fixture = existsSync(source)
        ? Fixture.parse(JSON.parse(readFileSync(source, 'utf8')))
        : await store.get(source);
      const mode = typeof options.mode === 'string' ? options.mode : 'original';
      const scale = options.scale === undefined ? 1 : Number(options.scale);
      if (!(scale > 0)) throw new UsageError('--scale must be a positive number.');
      const agent = await control(t, 'PUT', `/agents/${encodeURIComponent(ref)}/fixture`, {
        fixture,
        mode,
        scale,
      });
      return show(
        agent,
        () => `${ref} now replays "${fixture.name}" (${fixture.chunks.length} chunks, ${mode}).`,
      );
    }
    case 'clear': {
      if (!ref) throw new UsageError('mock fixture clear needs an agent.');
      await control(t, 'DELETE', `/agents/${encodeURIComponent(ref)}/fixture`);
      return show({ ok: true }, () => `${ref} composes its own replies again.`);
    }
    default:
      throw new UsageError(`Unknown fixture command "${action}": see \`agent-console mock fixture --help\`.`);
  }
}

export async function mockCommand(dataDir: string, args: string[], options: Options, io: Io): Promise<void> {
  const [sub, ...rest] = args;
  const t = target(dataDir);
  const show = (data: unknown, human: () => string) =>
    io.out(io.json ? JSON.stringify(data, null, 2) : human());
  try {
    switch (sub) {
      case 'state':
      case undefined: {
        const state = (await control(t, 'GET', '/state')) as {
          agents: Record<string, unknown>[];
          keys: Record<string, unknown>[];
          health: { status: string; components: Record<string, string> };
          chaos: { preset: string }[];
        };
        return show(state, () =>
          [
            `health: ${state.health.status} (${Object.entries(state.health.components)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')})`,
            `chaos: ${state.chaos.map((c) => c.preset).join(', ') || 'none'}`,
            '',
            table(state.agents, ['slug', 'status', 'latencyMs', 'chunkDelayMs', 'chunkCount']),
            '',
            table(state.keys, ['id', 'name', 'masked', 'tier', 'plan', 'revoked']),
          ].join('\n'),
        );
      }
      case 'requests': {
        const { requests } = (await control(t, 'GET', '/requests')) as {
          requests: Record<string, unknown>[];
        };
        const rows = requests.map((r) => ({
          ...r,
          at: new Date(r.at as number).toISOString().slice(11, 23),
        }));
        return show(requests, () =>
          table(rows, ['at', 'method', 'path', 'status', 'durationMs', 'key', 'requestId']),
        );
      }
      case 'reset':
        await control(t, 'POST', '/reset');
        return show({ ok: true }, () => 'The mock is back to its seeded state: no faults, no chaos.');
      case 'chaos': {
        const undo = typeof options.undo === 'string' ? options.undo : undefined;
        const result = options.clear
          ? await control(t, 'DELETE', '/chaos')
          : undo
            ? await control(t, 'DELETE', `/chaos/${encodeURIComponent(undo)}`)
            : rest[0]
              ? await control(t, 'POST', `/chaos/${encodeURIComponent(rest[0])}`)
              : await control(t, 'GET', '/chaos');
        const active = (result as { active: { preset: string; description: string }[] }).active;
        return show(result, () =>
          active.length
            ? active.map((c) => `on: ${c.preset} — ${c.description}`).join('\n')
            : 'No chaos is on.',
        );
      }
      case 'agent': {
        const slug = rest[0];
        if (!slug) throw new UsageError('mock agent needs the agent slug.');
        const patch = {
          ...(typeof options.status === 'string' ? { status: options.status } : {}),
          ...(options.latency !== undefined ? { latencyMs: numberOption(options, 'latency') } : {}),
          ...(options.pace !== undefined ? { chunkDelayMs: numberOption(options, 'pace') } : {}),
          ...(options.length !== undefined ? { chunkCount: numberOption(options, 'length') } : {}),
        };
        const agent = await control(t, 'PATCH', `/agents/${encodeURIComponent(slug)}`, patch);
        return show(agent, () => JSON.stringify(agent));
      }
      case 'health': {
        const health = (await control(
          t,
          'PATCH',
          '/health',
          pick(options, ['api', 'vps', 'agents', 'gateway']),
        )) as {
          status: string;
        };
        return show(health, () => `health: ${health.status}`);
      }
      case 'key': {
        const [action, ref, value] = rest;
        let key: unknown;
        if (action === 'create') {
          const name = typeof options.name === 'string' ? options.name : undefined;
          if (!name) throw new UsageError('mock key create needs --name.');
          const tier = numberOption(options, 'tier');
          key = await control(t, 'POST', '/keys', {
            name,
            ...(tier !== undefined ? { tier } : {}),
            ...(typeof options.plan === 'string' ? { plan: options.plan } : {}),
          });
        } else if ((action === 'tier' || action === 'plan') && ref && value) {
          key = await control(t, 'PATCH', `/keys/${encodeURIComponent(ref)}`, {
            [action]: action === 'tier' ? Number(value) : value,
          });
        } else if (action === 'revoke' && ref) {
          key = await control(t, 'POST', `/keys/${encodeURIComponent(ref)}/revoke`);
        } else {
          throw new UsageError(
            'mock key: create --name N | tier <id> <tier> | plan <id> <plan> | revoke <id>.',
          );
        }
        return show(key, () => JSON.stringify(key));
      }
      case 'errors': {
        const shape = rest[0];
        if (!shape) throw new UsageError('mock errors needs a shape: nested, flat or flat-429.');
        await control(t, 'PATCH', '/faults', { errorShape: shape });
        return show({ errorShape: shape }, () => `Error bodies are now ${shape}.`);
      }
      case 'fixture':
        return await fixtureCommand(t, FixtureStore.inDataDir(dataDir), rest, options, show);
      default:
        throw new UsageError(`Unknown mock command "${sub}": see \`agent-console mock --help\`.`);
    }
  } finally {
    await t.dispatcher.close();
  }
}
