// Recorded replies: saved from a stream the console received, as JSON files in the data
// folder, importable and exportable, and handed to the mock to replay. Anything key-shaped in a
// reply is masked before it is written.
import { randomBytes } from 'node:crypto';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FIXTURE_FORMAT, Fixture } from '../../shared/fixture';
import { CoreError } from './core-error';
import { ensurePrivateDir, replacePrivateFile } from './private-files';
import { redactSecrets } from './redact';
import { redactPieces } from './redact-stream';

export interface FixtureSummary {
  id: string;
  name: string;
  agent: string;
  recordedAt: string;
  chunkCount: number;
  /** Milliseconds from the request to the last chunk. */
  durationMs: number;
}

const ID_PATTERN = /^[a-z0-9-]{1,80}$/;

export class FixtureError extends CoreError {
  override readonly name = 'FixtureError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('FIXTURE', message, options);
  }
}

function summary(id: string, fixture: Fixture): FixtureSummary {
  return {
    id,
    name: fixture.name,
    agent: fixture.agent,
    recordedAt: fixture.recordedAt,
    chunkCount: fixture.chunks.length,
    durationMs: Math.round(fixture.chunks.at(-1)?.atMs ?? 0),
  };
}

function newId(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${slug || 'fixture'}-${randomBytes(3).toString('hex')}`;
}

export class FixtureStore {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The data folder's fixtures: the one place that says where they live. */
  static inDataDir(dataDir: string): FixtureStore {
    return new FixtureStore(join(dataDir, 'fixtures'));
  }

  private file(id: string): string {
    if (!ID_PATTERN.test(id)) throw new FixtureError(`"${id}" is not a fixture id.`);
    return join(this.dir, `${id}.json`);
  }

  async list(): Promise<FixtureSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: FixtureSummary[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const id = name.slice(0, -5);
      try {
        out.push(summary(id, await this.get(id)));
      } catch {
        // An unreadable file stays on disk for the user to look at; it is not listed.
      }
    }
    return out.sort((a, b) => b.recordedAt.localeCompare(a.recordedAt));
  }

  async get(id: string): Promise<Fixture> {
    const text = await readFile(this.file(id), 'utf8').catch(() => {
      throw new FixtureError(`No fixture "${id}".`);
    });
    return this.parse(text, `Fixture file ${this.file(id)}`);
  }

  /** Saves a reply from the raw events the stream delivered (`data:` payloads and arrival times). */
  async saveFromFrames(input: {
    name: string;
    agent: string;
    frames: { atMs: number; data: string; comment?: boolean }[];
  }): Promise<FixtureSummary> {
    const chunks: Fixture['chunks'] = [];
    for (const frame of input.frames) {
      if (frame.comment) continue;
      try {
        const event = JSON.parse(frame.data) as { content?: unknown };
        if (typeof event.content === 'string')
          chunks.push({ content: event.content, atMs: Math.max(0, frame.atMs) });
      } catch {
        // [DONE] and anything else that is not a chunk.
      }
    }
    if (chunks.length === 0) throw new FixtureError('That reply has no chunks to record.');
    return this.write({
      format: FIXTURE_FORMAT,
      version: 1,
      name: input.name.trim() || `${input.agent} reply`,
      agent: input.agent,
      recordedAt: new Date(this.now()).toISOString(),
      chunks,
    });
  }

  /** Imports a fixture file's text (validated; key-shaped strings masked). */
  async importText(text: string): Promise<FixtureSummary> {
    return this.write(this.parse(text, 'The imported file'));
  }

  async exportText(id: string): Promise<{ fileName: string; text: string }> {
    const fixture = await this.get(id);
    return { fileName: `${id}.json`, text: JSON.stringify(fixture, null, 2) };
  }

  async remove(id: string): Promise<boolean> {
    try {
      await unlink(this.file(id));
      return true;
    } catch {
      return false;
    }
  }

  private parse(text: string, what: string): Fixture {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new FixtureError(`${what} is not JSON: ${(error as Error).message}`);
    }
    const parsed = Fixture.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new FixtureError(
        `${what} is not a fixture: ${issue?.path.join('.') || 'file'}: ${issue?.message}.`,
      );
    }
    return parsed.data;
  }

  private async write(fixture: Fixture): Promise<FixtureSummary> {
    // Masked over the joined reply: a key split across chunks is a key.
    const contents = redactPieces(fixture.chunks.map((c) => c.content));
    const clean: Fixture = {
      ...fixture,
      name: redactSecrets(fixture.name),
      chunks: fixture.chunks.map((c, i) => ({ ...c, content: contents[i] ?? '' })),
    };
    await ensurePrivateDir(this.dir, dirname(this.dir));
    const id = newId(clean.name);
    await replacePrivateFile(this.file(id), JSON.stringify(clean));
    return summary(id, clean);
  }
}
