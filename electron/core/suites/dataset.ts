// A case's `vars-file`: a dataset beside the suite file, one run of the case per row
// (docs/architecture.md, "Datasets"). A CSV's header row names the variables (quoted fields,
// UTF-8, a byte-order mark tolerated; parsed by csv-parse); a .jsonl file holds one object per
// line. Both are read as a stream, row by row, so the file's text is never held beside its rows.
import { createReadStream, type ReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

interface DatasetRow {
  /** 1-based line of the file the row starts on. */
  line: number;
  values: Record<string, string>;
}

export interface Dataset {
  /** The file's name as a case's name shows it ("refunds.csv"). */
  name: string;
  rows: DatasetRow[];
}

/** A dataset that cannot be read: where (the line, when a row is to blame) and why. */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';

  constructor(
    readonly line: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function checkNames(names: readonly string[], line: number): void {
  const bad = names.find((n) => !VAR_NAME.test(n));
  if (bad !== undefined) {
    throw new DatasetError(line, `"${bad}" is no variable name: a name is letters, digits, _ and -.`);
  }
}

/** The file as a stream, once it is open: a file that cannot be read is said before a row is. */
async function openStream(path: string, encoding?: BufferEncoding): Promise<ReadStream> {
  const input = createReadStream(path, encoding !== undefined ? { encoding } : {});
  await new Promise<void>((resolve, reject) => {
    input.once('open', () => resolve());
    input.once('error', (error: NodeJS.ErrnoException) =>
      reject(new DatasetError(undefined, `Cannot read the file (${error.code ?? error.message}).`)),
    );
  });
  return input;
}

async function readCsv(path: string): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  const input = await openStream(path);
  const parser = input.pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      columns: (header: string[]) => {
        checkNames(header, 1);
        return header;
      },
    }),
  );
  input.once('error', (error) => parser.destroy(error));
  try {
    for await (const { record, info, raw } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
      raw: string;
    }>) {
      // The parser counts the line a row ends on; a quoted field may hold line breaks, and the
      // raw text of a row starts with the empty lines skipped before it.
      const breaks =
        raw
          .replace(/^(?:\r?\n)+/, '')
          .replace(/\r?\n$/, '')
          .split('\n').length - 1;
      rows.push({ line: info.lines - breaks, values: record });
    }
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    const line = (error as { lines?: unknown }).lines;
    // csv-parse ends its messages with the line, which ours puts first.
    const message = (error as Error).message.replace(/,? (?:on|at) line \d+\.?$/, '.');
    throw new DatasetError(typeof line === 'number' ? line : undefined, message);
  }
  return rows;
}

async function readJsonl(path: string): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  const input = await openStream(path, 'utf8');
  let line = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new DatasetError(line, `Not JSON: ${(error as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new DatasetError(line, 'A line of a .jsonl dataset is one JSON object of variables.');
    }
    const values: Record<string, string> = {};
    for (const [name, v] of Object.entries(value)) {
      if (typeof v === 'object' && v !== null) {
        throw new DatasetError(
          line,
          `"${name}" is an object or a list: a variable is text, a number or true/false.`,
        );
      }
      values[name] = String(v);
    }
    checkNames(Object.keys(values), line);
    rows.push({ line, values });
  }
  return rows;
}

/** Reads a dataset; a row that does not parse is a DatasetError with its line. */
export async function readDataset(path: string): Promise<Dataset> {
  const rows = /\.jsonl$/i.test(path) ? await readJsonl(path) : await readCsv(path);
  if (rows.length === 0) throw new DatasetError(undefined, 'The dataset has no rows.');
  return { name: basename(path), rows };
}
