// Starts the mock service over HTTPS on loopback. The app, the CLI, the web host and the tests all
// start it through this one function. The mock stands alone (docs/architecture.md, "The mock"): it
// imports only shared/, and what belongs to its host — the lock on its data folder, where that
// folder is — comes in its options.
import { mkdirSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_PREFIX } from '../shared/api';
import { systemClock, type Clock } from '../shared/clock';
import { OPENAPI_PATH, openApiDocument } from '../shared/openapi';
import { loadOrCreateTls } from './cert';
import { CONTROL_PREFIX, MockControl, registerControlRoutes } from './control';
import type { MockRequest } from '../shared/bridge/mock';
import { carriesControlToken, loadOrCreateControlToken } from './control-token';
import { ApiFailure, ControlRefusal, errorBody, injectedFailure, NOT_JSON_BODY } from './errors';
import { newRequestId } from './ids';
import type { RateDecision } from './rate-window';
import { registerApiRoutes } from './routes-api';
import { MockService } from './service';
import type { DemoKeyName } from './seed';

export interface MockServerOptions {
  dataDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  clock?: Clock;
  chatTimeoutMs?: number;
  /** Human-readable request lines (the CLI sends them to stderr). */
  log?: (line: string) => void;
  /** A corrupt state file set aside, a failed state write: words for the user (default: stderr). */
  onWarning?: (message: string) => void;
  /**
   * The control path (/__control: revoke keys, break agents, read every request) answers this
   * machine only unless this is set (`--allow-remote-control`), and, from anywhere, only a request
   * that carries its token (`controlToken`).
   */
  allowRemoteControl?: boolean;
  /**
   * Takes the data folder for this mock before its state is read, released when it closes: two
   * mocks on one state file would overwrite each other's writes, so the host hands a lock that
   * refuses the second by name (the app's core and `agent-console mock` do). Without it the mock
   * takes no lock: a test's own folder needs none.
   */
  lockDataDir?: (dataDir: string) => Promise<MockDataDirLock>;
  /**
   * PEM of the CA whose client certificates the mock requires (`mock serve --client-ca`): a
   * connection without one signed by it is refused in the TLS handshake, as a service behind
   * mutual TLS refuses it.
   */
  clientCa?: string;
}

interface MockDataDirLock {
  release(): Promise<void>;
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (a socket bound to :: or 0.0.0.0 reports those). */
function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.replace(/^::ffff:/i, '');
  return address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(v4);
}

export interface MockServer {
  baseUrl: string;
  caCertPath: string;
  /** PEM of the CA that signed the server certificate. */
  ca: string;
  keys: Record<DemoKeyName, string>;
  control: MockControl;
  /**
   * The bearer token the control path over HTTP requires, made once per data folder and kept in
   * it as `control-token` (0600). In-process, `control` needs none.
   */
  controlToken: string;
  service: MockService;
  /** The mock's route table: every method and path it answers, as registered (HEAD twins included). */
  routes: readonly { method: string; path: string }[];
  close(): Promise<void>;
}

/** Request bodies may be larger than a message (JSON escapes), but not unboundedly. */
const BODY_LIMIT = 1024 * 1024;

function setRateHeaders(reply: FastifyReply, d: RateDecision): void {
  reply.header('x-ratelimit-limit', d.limit);
  reply.header('x-ratelimit-remaining', d.remaining);
  reply.header('x-ratelimit-reset', d.resetS);
}

function maskBearer(header: string | undefined): string {
  // Every request is logged: the usual `Bearer <key>` skips the pattern.
  const usual = header !== undefined && header.startsWith('Bearer ') && header.charCodeAt(7) > 32;
  const token = usual ? header.slice(7) : (header?.replace(/^Bearer\s+/i, '') ?? '');
  if (!token) return '-';
  return token.length >= 12 ? `${token.slice(0, 4)}…${token.slice(-4)}` : '…';
}

/** Turns Fastify's own refusals (content type, JSON syntax, size) into the spec's 400. */
function translate(error: FastifyError): ApiFailure {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiFailure(400, 'BAD_REQUEST', 'Content-Type must be application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiFailure(400, 'BAD_REQUEST', `Request body is larger than ${BODY_LIMIT} bytes.`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiFailure(400, 'BAD_REQUEST', 'Request body is empty; send a JSON object.');
    default:
      if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
        return new ApiFailure(400, 'BAD_REQUEST', `Request body is not valid JSON: ${error.message}`);
      }
      return new ApiFailure(400, 'BAD_REQUEST', error.message);
  }
}

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const stateLock = await options.lockDataDir?.(options.dataDir);
  try {
    return await listen(options, stateLock);
  } catch (error) {
    await stateLock?.release();
    throw error;
  }
}

async function listen(
  options: MockServerOptions,
  stateLock: MockDataDirLock | undefined,
): Promise<MockServer> {
  const tls = await loadOrCreateTls(options.dataDir);
  const warn = options.onWarning ?? ((message: string) => process.stderr.write(`${message}\n`));
  const controlToken = loadOrCreateControlToken(options.dataDir, warn);
  const service = new MockService({
    dataDir: options.dataDir,
    clock: options.clock ?? systemClock,
    ...(options.chatTimeoutMs !== undefined ? { chatTimeoutMs: options.chatTimeoutMs } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  // Its state read and checked, the mock gives the event loop a turn before building its server:
  // embedded, it starts on the thread that answers the web host's page.
  await nextTurn();
  const control = new MockControl(service);
  const app = Fastify({
    // The whole chain, as a server behind a private CA is set up: a client can read its issuer.
    https: {
      key: tls.key,
      cert: `${tls.cert}\n${tls.ca}`,
      ...(options.clientCa ? { ca: options.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
    },
    bodyLimit: BODY_LIMIT,
    logger: false,
    forceCloseConnections: true,
    genReqId: newRequestId,
    // Odd ids and paths must reach our handlers, not crash the router. The param limit is above
    // Node's 16 KB header limit, so a long thread id is an ordinary 404, not Fastify's own 414.
    routerOptions: { maxParamLength: 65_536, ignoreTrailingSlash: false },
    // A path Fastify cannot decode (`%zz`) is refused before hooks run: answer in the spec's shape.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const failure = new ApiFailure(400, 'BAD_REQUEST', `The request URL is not valid: ${error.message}`);
      void reply
        .status(failure.status)
        .header('x-request-id', request.id)
        .type('application/json; charset=utf-8')
        .send(errorBody(service.faults.errorShape, failure, request.id));
      // Answered before routing, so no reply hook runs: it goes in the request log here.
      logRequest(request, reply);
    },
    // Refusals by Node's HTTP parser (e.g. a URL past the header size limit) in the spec's shape too.
    clientErrorHandler: (error, socket) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ECONNRESET' || socket.destroyed) return;
      const failure =
        code === 'HPE_HEADER_OVERFLOW'
          ? new ApiFailure(431, 'HEADERS_TOO_LARGE', 'The request line and headers are too large.')
          : code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? new ApiFailure(408, 'REQUEST_TIMEOUT', 'The request was not received in time.')
            : new ApiFailure(400, 'BAD_REQUEST', 'The request is not valid HTTP.');
      const requestId = newRequestId();
      const body = JSON.stringify(errorBody(service.faults.errorShape, failure, requestId));
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status] ?? ''}\r\n` +
            `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  });

  /** Which rules a path's requests meet: the API's gate, the control path's, or only an id. */
  const kindOf = (path: string): 'api' | 'control' | 'other' =>
    path.startsWith(`${API_PREFIX}/`) || path === API_PREFIX
      ? 'api'
      : path.startsWith(CONTROL_PREFIX)
        ? 'control'
        : 'other';

  /**
   * What a request meets before its route's own work: its id on the reply; on the control path,
   * the loopback rule, then its token (before any body is read, so a refused request changes
   * nothing); on the API, the latency fault, an injected failure, then the key, the plan and the
   * rate window (spec §7–8). A refusal is thrown, for the error handler to answer. A promise only
   * while a latency fault is armed.
   */
  const gate = (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: 'api' | 'control' | 'other',
  ): Promise<void> | undefined => {
    reply.header('x-request-id', request.id);
    if (kind === 'control') {
      if (!options.allowRemoteControl && !isLoopbackAddress(request.socket.remoteAddress)) {
        throw new ControlRefusal(
          403,
          'CONTROL_LOOPBACK_ONLY',
          "The mock's control path answers this machine only; start the mock with --allow-remote-control to open it to others.",
        );
      }
      const authorization = request.headers.authorization;
      if (!carriesControlToken(authorization, controlToken)) {
        reply.header('www-authenticate', 'Bearer realm="mock control"');
        throw new ControlRefusal(
          401,
          'INVALID_CONTROL_TOKEN',
          `${authorization === undefined ? "The mock's control path needs its token" : "That is not this mock's control token"}: send "Authorization: Bearer <token>" with the controlToken that \`npm run mock\` prints (also in the mock's data folder, in the file control-token).`,
        );
      }
      return undefined;
    }
    if (kind !== 'api') return undefined;
    if (service.faults.latencyMs > 0) {
      return service.clock.sleep(service.faults.latencyMs).then(() => admit(request, reply));
    }
    admit(request, reply);
    return undefined;
  };
  const admit = (request: FastifyRequest, reply: FastifyReply): void => {
    const injected = service.takeInjectedFailure(request.url);
    if (injected !== undefined) {
      const failure = injectedFailure(injected);
      // Spec §8: every 429 carries the X-RateLimit headers, an injected one too.
      if (injected === 429) {
        throw Object.assign(failure, {
          decision: service.injectedRateDecision(request.headers.authorization),
        });
      }
      throw failure;
    }
    const key = service.authenticate(request.headers.authorization);
    service.checkPlan(key);
    setRateHeaders(reply, service.admit(key));
  };

  /**
   * A route's answer on its way out: into the request log and, while that fault is armed
   * (faults.malformedNext), a successful API answer garbled as a broken proxy would.
   */
  const answer = (request: FastifyRequest, reply: FastifyReply, api: boolean, payload: unknown): unknown => {
    logRequest(request, reply);
    if (!api || service.faults.malformedNext === undefined) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const garble = service.takeMalformed(request.url);
    if (garble === 'wrong-content-type') {
      reply.header('content-type', 'text/html; charset=utf-8');
      return typeof payload === 'string' ? payload : reply.serialize(payload);
    }
    if (garble === 'bad-json') {
      reply.header('content-type', 'application/json; charset=utf-8');
      return NOT_JSON_BODY;
    }
    return payload;
  };

  // Every route gets the gate and the answer's way out as part of its handler, not as Fastify
  // hooks: a pair of request and reply hooks cost ~5 µs of the ~30 µs the mock spent on a
  // GET /agents, 20% of its throughput. A route that takes a body meets the gate as its
  // onRequest hook instead, so a bad key is refused before the body is read (and a refused body
  // does not hide it). Fastify's HEAD twin of each GET is a route of its own and passes here too.
  // The route's pattern decides its kind, not the raw target: the router also routes absolute-form
  // (`GET https://host/api/v1/agents`) and percent-encoded (`/%61pi/v1/…`) targets.
  const routes: { method: string; path: string }[] = [];
  app.addHook('onRoute', (route) => {
    const kind = kindOf(route.url);
    const handler = route.handler;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, path: route.url });
    const takesBody = methods.some((method) => method !== 'GET' && method !== 'HEAD');
    if (takesBody) {
      const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
      route.onRequest = [...hooks, async (request, reply) => gate(request, reply, kind)];
    }
    route.handler = async function (this: ThisParameterType<typeof handler>, request, reply) {
      if (!takesBody) {
        const waiting = gate(request, reply, kind);
        if (waiting) await waiting;
      }
      const payload: unknown = await handler.call(this, request, reply);
      // A stream has been written, and logged, by its route.
      if (reply.sent) return payload;
      return answer(request, reply, kind === 'api', payload);
    };
  });

  app.setErrorHandler((error: FastifyError | ApiFailure, request: FastifyRequest, reply: FastifyReply) => {
    let failure: ApiFailure;
    if (error instanceof ApiFailure) {
      failure = error;
    } else if (error.statusCode !== undefined && error.statusCode < 500) {
      failure = translate(error);
    } else {
      options.log?.(
        `mock: internal error on ${request.method} ${request.url}: ${error.stack ?? error.message}`,
      );
      failure = new ApiFailure(500, 'INTERNAL_ERROR', 'The mock failed unexpectedly; see its log.');
    }
    const decision = (error as { decision?: RateDecision }).decision;
    if (decision) setRateHeaders(reply, decision);
    if (failure.retryAfterS !== undefined) reply.header('retry-after', failure.retryAfterS);
    reply.status(failure.status).type('application/json; charset=utf-8');
    logRequest(request, reply);
    const shape = failure instanceof ControlRefusal ? 'nested' : service.faults.errorShape;
    return reply.send(errorBody(shape, failure, request.id));
  });

  // An unknown path meets its kind's gate too, and before its body is read: on the API a bad key
  // is a 401 before it is a 404 (or a 400 for the body). A scope of its own, so this hook runs for
  // unknown paths only.
  void app.register(async (unknown) => {
    unknown.addHook('onRequest', async (request, reply) => gate(request, reply, kindOf(request.url)));
    unknown.setNotFoundHandler(async (request) => {
      throw new ApiFailure(
        404,
        'NOT_FOUND',
        `No such endpoint: ${request.method} ${request.url.split('?')[0]}.`,
      );
    });
  });

  // The request log: an entry for each reply as it goes out (by the answer's way out above, the
  // error handler, and a refusal before routing); a streamed chat, which bypasses Fastify's reply,
  // adds its own when its stream ends, an aborted one too. Not an onResponse hook: measured as the
  // mock's CPU per GET /agents under load, that cost about 2 µs of 27.
  const logRequest = (request: FastifyRequest, reply: FastifyReply): void => {
    const url = request.url;
    const query = url.indexOf('?');
    const entry: MockRequest = {
      at: service.clock.now(),
      method: request.method,
      path: query < 0 ? url : url.slice(0, query),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime),
      requestId: request.id,
      // The control path's bearer is its token: not even its ends are kept.
      key: url.startsWith(CONTROL_PREFIX) ? '-' : maskBearer(request.headers.authorization),
    };
    control.recordRequest(entry);
    options.log?.(
      `${entry.method} ${entry.path} ${entry.status} ${entry.durationMs}ms key=${entry.key} ${entry.requestId}`,
    );
  };

  registerApiRoutes(app, service, logRequest);
  registerControlRoutes(app, control);
  // The service as the console reads it (docs/architecture.md, "OpenAPI"), for a person or a tool
  // pointed at the mock. No key: the document holds nothing of anyone's. Made at its first request.
  let openApi: string | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    openApi ??= JSON.stringify(openApiDocument());
    void reply.type('application/json; charset=utf-8');
    return openApi;
  });

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    caCertPath: tls.caCertPath,
    ca: tls.ca,
    keys: service.demoSecrets(),
    control,
    controlToken,
    service,
    routes,
    async close() {
      await app.close();
      try {
        await service.flush();
      } finally {
        await stateLock?.release();
      }
    },
  };
}
