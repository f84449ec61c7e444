// The OpenAPI document of the service: valid OpenAPI 3.1 by a validator of its own
// (@readme/openapi-parser), served by the mock with no key, printed by `agent-console openapi`, and
// holding every path the mock's route table serves as the service.
import { validate } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { describe, expect, test, vi } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { API_PREFIX } from '../../shared/api';
import { OPENAPI_PATH, openApiDocument } from '../../shared/openapi';
import { runNode } from '../support/run-process';
import { withTestMock, type TestMock } from '../support/mock';

type Document = { paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;

let mock: TestMock;
withTestMock((m) => (mock = m));

/** The command in this process, its output caught. */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await runCli(['openapi', ...args]);
    const text = (spy: typeof out): string => spy.mock.calls.map((c) => String(c[0])).join('');
    return { code, stdout: text(out), stderr: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** `/threads/:threadId/messages` and `/threads/{thread_id}/messages` name the same path. */
const pathShape = (path: string): string => path.replace(/:[^/]+|\{[^}]+\}/g, '{}');

describe('the OpenAPI document', () => {
  test('is valid OpenAPI 3.1', async () => {
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    // The validator resolves $refs in place: it gets a copy.
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result).toMatchObject({ valid: true });
    // And it is a validator that says no: a document without its info is refused.
    const { info: _info, ...broken } = structuredClone(document);
    expect((await validate(broken as Parameters<typeof validate>[0])).valid).toBe(false);
  });

  test('describes both error shapes, the rate-limit headers and the chat stream’s events', () => {
    const document = openApiDocument() as Document & {
      components: { responses: Record<string, { headers: Record<string, unknown>; content: unknown }> };
    };
    const limited = document.components.responses.Error429;
    expect(Object.keys(limited?.headers ?? {})).toEqual(
      expect.arrayContaining([
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ]),
    );
    expect(JSON.stringify(limited?.content)).toContain('NestedErrorBody');
    expect(JSON.stringify(limited?.content)).toContain('FlatErrorBody');
    const chat = document.paths[`${API_PREFIX}/chat`]?.post as {
      responses: Record<string, { content: Record<string, Record<string, unknown>> }>;
    };
    expect(chat.responses['200']?.content['text/event-stream']?.['x-event-data']).toEqual({
      oneOf: [{ $ref: '#/components/schemas/StreamEvent' }, { const: '[DONE]' }],
    });
  });

  test('the mock serves it at /openapi.json with no key', async () => {
    const served = await mock.call('GET', OPENAPI_PATH, { key: null });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toContain('application/json');
    expect(served.json).toEqual(openApiDocument());
  });

  test('every path and method the mock serves as the service is in it', () => {
    const document = openApiDocument() as Document;
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${pathShape(path)}`),
      ),
    );
    const served = mock.server.routes.filter((route) => route.path.startsWith(`${API_PREFIX}/`));
    expect(served.length).toBeGreaterThanOrEqual(8);
    for (const route of served) {
      // Fastify answers HEAD for every GET; the document names the GET.
      const method = route.method === 'HEAD' ? 'GET' : route.method;
      expect(documented, `${route.method} ${route.path}`).toContain(`${method} ${pathShape(route.path)}`);
    }
    // Beside the service's paths the mock serves only its control path and this document.
    const others = mock.server.routes.filter((route) => !served.includes(route)).map((route) => route.path);
    expect(others.filter((path) => !path.startsWith('/__control') && path !== OPENAPI_PATH)).toEqual([]);
  });

  test('`agent-console openapi` prints the same document, as JSON or YAML', async () => {
    // The real CLI once (a spawned CLI costs seconds of CPU, which tests sharing two cores feel);
    // the other formats in this process.
    const asYaml = await runNode(['bin/agent-console.js', 'openapi', '--format', 'yaml']);
    expect(asYaml.code, asYaml.stderr).toBe(0);
    expect(parse(asYaml.stdout)).toEqual(openApiDocument());
    const asJson = await inProcess([]);
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual(openApiDocument());
    const wrong = await inProcess(['--format', 'xml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--format');
    expect(wrong.stderr).toMatch(/json, yaml|json or yaml/);
  }, 60_000);
});
