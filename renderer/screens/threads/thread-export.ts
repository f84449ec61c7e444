// A thread's known history for a ticket, as Markdown (to paste) or JSON (to keep). Only what this
// client recorded: the API returns no history (DESIGN.md §2), and the files say so when it is partial.
import type { Thread } from '../../../shared/api';
import type { Transcript } from '../../../shared/transcript';

type ThreadFacts = Pick<Thread, 'id' | 'title' | 'agent' | 'message_count' | 'created_at'> & {
  updated_at?: string;
};

const KNOWN = {
  start: 'Known from the start: this client created the thread.',
  partial: 'Partly known: the thread began elsewhere, so earlier messages exist that this client never saw.',
} as const;

function quoteBlock(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}

export function threadMarkdown(thread: ThreadFacts, transcript: Transcript | null): string {
  const out = [
    `# ${thread.title || 'Untitled thread'}`,
    '',
    `- Thread: \`${thread.id}\``,
    `- Agent: \`${thread.agent}\``,
    `- Messages on the service: ${thread.message_count}`,
    `- Created: ${thread.created_at}`,
    ...(thread.updated_at ? [`- Updated: ${thread.updated_at}`] : []),
    `- History: ${transcript ? KNOWN[transcript.knownFrom] : 'Not known: this client has no record of its messages.'}`,
    '',
  ];
  for (const m of transcript?.messages ?? []) {
    const who = m.role === 'user' ? 'User' : 'Agent';
    const status = m.status === 'complete' ? '' : ` (${m.status}${m.error ? `: ${m.error}` : ''})`;
    out.push(`## ${who} · ${m.at}${status}`, '');
    // Messages go in block quotes so their own Markdown (headings, rules) cannot break the layout.
    out.push(m.content ? quoteBlock(m.content) : '_(no text)_', '');
  }
  return out.join('\n');
}

export function threadJson(thread: ThreadFacts, transcript: Transcript | null, exportedAt: string): string {
  return `${JSON.stringify(
    {
      exported_at: exportedAt,
      thread,
      history: {
        known_from: transcript?.knownFrom ?? 'unknown',
        messages: transcript?.messages ?? [],
      },
    },
    null,
    2,
  )}\n`;
}

export function threadFileName(threadId: string, ext: 'md' | 'json'): string {
  return `thread-${threadId.replace(/[^A-Za-z0-9_-]+/g, '-')}.${ext}`;
}
