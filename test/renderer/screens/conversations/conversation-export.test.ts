// The conversations export: RFC 4180 quoting, formula neutralising, and JSON that explains itself.
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../../shared/api';
import {
  conversationsCsv,
  conversationsJson,
  exportFileName,
} from '../../../../renderer/screens/conversations/conversation-export';

const row = (patch: Partial<Conversation> = {}): Conversation => ({
  id: 'conv_1',
  agent: 'helpdesk',
  session_id: 'abc123',
  message_count: 4,
  started_at: '2026-01-15T10:00:00.000Z',
  last_message_at: '2026-01-15T10:03:00.000Z',
  status: 'completed',
  ...patch,
});

/** A small RFC 4180 reader, to check that what we write reads back as it was. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      rows.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('conversationsCsv', () => {
  it('writes the spec columns with a header row and CRLF line ends', () => {
    const csv = conversationsCsv([row(), row({ id: 'conv_2', session_id: 'def456' })]);
    expect(csv).toBe(
      'id,session_id,agent,message_count,started_at,last_message_at,status\r\n' +
        'conv_1,abc123,helpdesk,4,2026-01-15T10:00:00.000Z,2026-01-15T10:03:00.000Z,completed\r\n' +
        'conv_2,def456,helpdesk,4,2026-01-15T10:00:00.000Z,2026-01-15T10:03:00.000Z,completed\r\n',
    );
  });

  it('reads back field for field, whatever the status holds', () => {
    const odd = row({ status: 'waiting, "on hold"\r\nsince Monday' });
    const [header, record] = parseCsv(conversationsCsv([odd]));
    expect(header).toHaveLength(7);
    expect(record?.[6]).toBe(odd.status);
  });

  it('is only a header for no rows', () => {
    expect(conversationsCsv([])).toBe(
      'id,session_id,agent,message_count,started_at,last_message_at,status\r\n',
    );
  });
});

describe('conversationsJson', () => {
  it('keeps the filter, time and service beside exactly the spec fields', () => {
    const extra = { ...row(), secret: 'not a spec field' } as Conversation;
    const json = JSON.parse(
      conversationsJson([extra], {
        agent: 'helpdesk',
        exportedAt: '2026-01-15T11:00:00.000Z',
        baseUrl: 'https://x',
      }),
    );
    expect(json).toEqual({
      exported_at: '2026-01-15T11:00:00.000Z',
      filter: { agent: 'helpdesk' },
      service: 'https://x',
      total: 1,
      conversations: [row()],
    });
  });

  it('says null for "every agent"', () => {
    expect(JSON.parse(conversationsJson([], { agent: undefined, exportedAt: 'x' })).filter).toEqual({
      agent: null,
    });
  });
});

describe('exportFileName', () => {
  it('names the filter and time in a name every file system accepts', () => {
    expect(exportFileName('helpdesk', '2026-01-15T10:32:05.123Z', 'csv')).toBe(
      'conversations-helpdesk-2026-01-15T10-32-05.csv',
    );
    expect(exportFileName(undefined, '2026-01-15T10:32:05.123Z', 'json')).toBe(
      'conversations-all-agents-2026-01-15T10-32-05.json',
    );
    expect(exportFileName('../a b', '2026-01-15T10:32:05.123Z', 'csv')).toBe(
      'conversations--a-b-2026-01-15T10-32-05.csv',
    );
  });
});
