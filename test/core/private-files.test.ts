// private-files.ts: the console's folders and files are private and never reached through a link.
// Each test puts a link where the console keeps something of its own, pointing at a folder or file
// that is not the console's, and checks that what the link points to is left exactly as it was.
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { afterEach, describe, expect, test } from 'vitest';
import {
  appendPrivateFile,
  checkDataFolder,
  createPrivateFileSync,
  DataFolderError,
  ensurePrivateDirSync,
  openPrivateAppendSync,
  replacePrivateFile,
  replacePrivateFileSync,
} from '../../electron/core/private-files';
import { RingJournal } from '../../electron/core/ring-journal';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { z } from 'zod';
import { rememberSecret } from '../../electron/core/redact';
import { keyPieces, plantKey } from '../security/leak-check';
import { removeDir, tempDir } from '../support/mock';

const posix = describe.skipIf(process.platform === 'win32');
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});
function scratch(): string {
  const dir = tempDir('agent-console-private-');
  dirs.push(dir);
  return dir;
}

/** A file that is not the console's, as it is before the test: contents, mode and owner. */
function theirs(dir: string, text = 'theirs\n'): { path: string; unchanged: () => void } {
  const path = join(dir, 'theirs.txt');
  writeFileSync(path, text, { mode: 0o644 });
  chmodSync(path, 0o644);
  if (asRoot) chownSync(path, NOBODY, NOBODY);
  const before = statSync(path);
  return {
    path,
    unchanged() {
      const now = statSync(path);
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(now.mode & 0o777).toBe(0o644);
      expect([now.uid, now.gid]).toEqual([before.uid, before.gid]);
    },
  };
}

posix('a replaced file', () => {
  test('write-file-atomic writes through a link, which is why the console does not use it for its files', async () => {
    const dir = scratch();
    const target = theirs(scratch());
    const file = join(dir, 'settings.json');
    symlinkSync(target.path, file);
    await writeFileAtomic(file, '{}', { mode: 0o600 });
    // The link is still there and the file it pointed to was replaced (and, as root, given its owner).
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(target.path, 'utf8')).toBe('{}');
  });

  test('replacePrivateFile and its sync twin replace a link with a file of our own, leaving its target alone', async () => {
    for (const replace of [replacePrivateFile, replacePrivateFileSync]) {
      const dir = scratch();
      const target = theirs(scratch());
      const file = join(dir, 'settings.json');
      symlinkSync(target.path, file);
      await replace(file, '{"ours":true}');
      const stats = lstatSync(file);
      expect(stats.isFile()).toBe(true);
      expect(stats.mode & 0o777).toBe(0o600);
      expect(stats.uid).toBe(process.getuid?.());
      expect(readFileSync(file, 'utf8')).toBe('{"ours":true}');
      target.unchanged();
      expect(readdirSync(dir)).toEqual(['settings.json']); // no temp file left beside it
    }
  });

  test('writes to one file land in the order they were asked for', async () => {
    const file = join(scratch(), 'order.json');
    await Promise.all(Array.from({ length: 20 }, (_, i) => replacePrivateFile(file, String(i))));
    expect(readFileSync(file, 'utf8')).toBe('19');
  });
});

describe('what is written', () => {
  test('passes the output guard: no secret reaches a file of the data folder, whatever wrote it', async () => {
    const key = plantKey();
    const hook = `https://hooks.example.com/services/${plantKey().slice(4)}`;
    rememberSecret(hook);
    const dir = scratch();
    const text = `{"reply":"${key}","hook":"${hook.replaceAll('/', '\\/')}"}\n`;
    await replacePrivateFile(join(dir, 'a.json'), text);
    replacePrivateFileSync(join(dir, 'b.json'), text);
    createPrivateFileSync(join(dir, 'c.json'), text);
    await appendPrivateFile(join(dir, 'd.jsonl'), text);
    for (const name of ['a.json', 'b.json', 'c.json', 'd.jsonl']) {
      const written = readFileSync(join(dir, name), 'utf8');
      expect(JSON.parse(written)).toEqual({ reply: `***…${key.slice(-4)}`, hook: `***…${hook.slice(-4)}` });
      expect(keyPieces(written, key)).toEqual([]);
    }
  });
});

posix('an appended file', () => {
  test('appendPrivateFile refuses a link in words and writes nothing through it', async () => {
    const dir = scratch();
    const target = theirs(scratch());
    const file = join(dir, 'health-history.jsonl');
    symlinkSync(target.path, file);
    const refused = await appendPrivateFile(file, 'a line\n').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataFolderError);
    expect((refused as Error).message).toContain(`${file} is a symbolic link`);
    expect(() => openPrivateAppendSync(file)).toThrow(`${file} is a symbolic link`);
    target.unchanged();
  });

  test('a file of ours is appended to, made 0600, and tightened when it was readable by others', async () => {
    const file = join(scratch(), 'journal.jsonl');
    await appendPrivateFile(file, 'one\n');
    chmodSync(file, 0o644);
    await appendPrivateFile(file, 'two\n');
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a journal whose file is a link loads nothing from it, says so, and replaces the link at its first write', async () => {
    const dir = scratch();
    const header = `${JSON.stringify({ kind: 'test/journal', v: 1 })}\n`;
    const target = theirs(scratch(), `${header}{"n":1}\n`);
    const file = join(dir, 'journal.jsonl');
    symlinkSync(target.path, file);
    const held: number[] = [];
    const journal = new RingJournal<number, { n: number }>({
      file,
      kind: 'test/journal',
      what: 'test journal',
      capacity: 10,
      line: z.object({ n: z.number() }),
      toLine: (n) => ({ n }),
      fromLine: (line) => line.n,
      entries: () => held,
    });
    const warning = journal.load(
      (n) => held.push(n),
      () => held.length,
    );
    expect(held).toEqual([]);
    expect(warning).toContain('is a symbolic link');
    held.push(2);
    journal.append(2);
    await journal.flush();
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`${header}{"n":2}\n`);
    target.unchanged();
  });
});

posix('a new file', () => {
  test('createPrivateFileSync refuses a link (or anything) already at its name', () => {
    const dir = scratch();
    const target = theirs(scratch());
    const file = join(dir, 'ca.pem');
    symlinkSync(target.path, file);
    expect(() => createPrivateFileSync(file, 'PEM')).toThrow();
    target.unchanged();
  });
});

posix('folders of ours', () => {
  test('a link in place of a folder is refused in words, and the folder it points to is neither tightened nor written', () => {
    const root = scratch();
    const elsewhere = scratch();
    chmodSync(elsewhere, 0o755);
    symlinkSync(elsewhere, join(root, 'transcripts'));
    expect(() => ensurePrivateDirSync(join(root, 'transcripts', 'profile.x'), root)).toThrow(
      `${join(root, 'transcripts')} is a symbolic link`,
    );
    expect(statSync(elsewhere).mode & 0o777).toBe(0o755);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test('missing folders are made 0700, and one left open to others is tightened', () => {
    const root = scratch();
    mkdirSync(join(root, 'runs'));
    chmodSync(join(root, 'runs'), 0o755);
    expect(ensurePrivateDirSync(join(root, 'runs', 'a', 'b'), root)).toBe(true);
    for (const dir of ['runs', 'runs/a', 'runs/a/b'])
      expect(statSync(join(root, dir)).mode & 0o777, dir).toBe(0o700);
    expect(ensurePrivateDirSync(join(root, 'runs', 'a', 'b'), root)).toBe(false);
  });

  test.skipIf(!asRoot)(
    'a folder of ours that another user owns is refused (skipped unless root: only root can give one away)',
    () => {
      const root = scratch();
      mkdirSync(join(root, 'fixtures'), { mode: 0o700 });
      chownSync(join(root, 'fixtures'), NOBODY, NOBODY);
      expect(() => ensurePrivateDirSync(join(root, 'fixtures'), root)).toThrow(
        `belongs to another user (uid ${NOBODY})`,
      );
    },
  );

  test('a transcript store whose folder is a link writes nothing through it and says why', async () => {
    const dataDir = scratch();
    const elsewhere = scratch();
    const folder = join(dataDir, 'transcripts');
    symlinkSync(elsewhere, folder);
    const store = new TranscriptStore(folder, { onWriteError: () => undefined });
    const ref = { kind: 'session' as const, id: 'abc', profileId: 'p1' };
    await store.append(
      ref,
      { role: 'user', content: 'hello', status: 'complete' },
      { agent: 'echo', knownFrom: 'start' },
    );
    const failed = await store.flush().catch((e: unknown) => e);
    expect((failed as Error).message).toContain('is a symbolic link');
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

posix('the data folder', () => {
  test('made 0700 when missing; accepted when the user made it readable by others; its mode never changed', () => {
    const parent = scratch();
    checkDataFolder(join(parent, 'new'));
    expect(statSync(join(parent, 'new')).mode & 0o777).toBe(0o700);
    mkdirSync(join(parent, 'shared-read'));
    chmodSync(join(parent, 'shared-read'), 0o755);
    checkDataFolder(join(parent, 'shared-read'));
    expect(statSync(join(parent, 'shared-read')).mode & 0o777).toBe(0o755);
  });

  test('refused when its group or others may write in it', () => {
    for (const mode of [0o770, 0o707, 0o1777]) {
      const dir = join(scratch(), 'data');
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(() => checkDataFolder(dir)).toThrow(`Other users can write in the data folder ${dir}`);
    }
  });

  test('a link the user made to a folder of theirs is a data folder like any other', () => {
    const parent = scratch();
    const real = join(parent, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(parent, 'data'));
    expect(() => checkDataFolder(join(parent, 'data'))).not.toThrow();
  });

  test.skipIf(!asRoot)(
    'refused when another user owns it (skipped unless root: only root can give a folder away)',
    () => {
      const dir = join(scratch(), 'data');
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, NOBODY, NOBODY);
      const refused = (() => {
        try {
          checkDataFolder(dir);
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(refused).toBeInstanceOf(DataFolderError);
      expect(refused).toMatchObject({ code: 'DATA_FOLDER_UNSAFE', path: dir });
      expect((refused as Error).message).toContain(`belongs to another user (uid ${NOBODY})`);
    },
  );
});
