// The stream inspector beside each reply: time to first chunk, total time, chunk count, chunks per
// second, gaps over 1 s, a warning when a stream ended without [DONE], the request id and the rate
// headers of the call (from the request log), and the raw frames with their arrival times.
import { memo, useState } from 'react';
import { useLog } from '../../stores/live';
import { ErrorMessage } from '../../components/error-message';
import { framesOf, sawDone } from './reply-frames';
import type { ReplyTurn } from './playground-store';
import { useBufferVersion } from './reply-body';
import { SLOW_GAP_MS, type StreamBuffer } from './stream-buffer';

const ms = (value: number | undefined): string =>
  value === undefined ? '—' : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;

export interface StreamFigures {
  firstChunkMs: number | undefined;
  totalMs: number | undefined;
  chunks: number;
  perSecond: number | undefined;
  gapsOverSlow: number;
  maxGapMs: number;
}

function figuresOf(reply: ReplyTurn, buffer: StreamBuffer): StreamFigures {
  const streamed = reply.request.stream && !reply.fromHistory;
  const chunks = streamed ? (reply.chunkCount ?? buffer.chunks.length) : 0;
  const first = buffer.atMs[0];
  const last = buffer.atMs.at(-1);
  // Pace while chunks flowed: time to first chunk is its own figure.
  const span = first !== undefined && last !== undefined ? last - first : 0;
  return {
    firstChunkMs: streamed ? (reply.timing?.firstChunkMs ?? first) : undefined,
    totalMs: reply.timing?.totalMs ?? (streamed ? last : undefined),
    chunks,
    perSecond: streamed && chunks > 1 && span > 0 ? ((chunks - 1) * 1000) / span : undefined,
    gapsOverSlow: streamed ? buffer.gapsOverSlow : 0,
    maxGapMs: streamed ? buffer.maxGapMs : 0,
  };
}

function RateHeaders({ requestId }: { requestId: string }) {
  const entry = useLog((s) => s.entries.findLast((e) => e.requestId === requestId));
  if (!entry) return <p className="muted">The request log no longer has this call.</p>;
  const { rate } = entry;
  return (
    <dl className="pg-facts" aria-label="Rate-limit headers">
      <dt>HTTP</dt>
      <dd>{entry.status || 'no reply'}</dd>
      <dt>X-RateLimit-Limit</dt>
      <dd>{rate.limit ?? '—'}</dd>
      <dt>X-RateLimit-Remaining</dt>
      <dd>{rate.remaining ?? '—'}</dd>
      <dt>X-RateLimit-Reset</dt>
      <dd>{rate.reset ? `${rate.reset} (${new Date(rate.reset * 1000).toLocaleTimeString()})` : '—'}</dd>
      {rate.retryAfterS !== undefined ? (
        <>
          <dt>Retry-After</dt>
          <dd>{rate.retryAfterS} s</dd>
        </>
      ) : null}
    </dl>
  );
}

const PAGE = 200;

interface Row {
  index: number;
  atMs: number;
  gapMs: number;
  data: string;
}

function rowsOf(reply: ReplyTurn, buffer: StreamBuffer): { rows: Row[]; live: boolean } {
  if (reply.frames) {
    let previous = 0;
    return {
      live: false,
      rows: reply.frames.map((f, index) => {
        const row = {
          index,
          atMs: f.atMs,
          gapMs: index === 0 ? 0 : f.atMs - previous,
          data: f.comment ? `: ${f.data}` : f.data,
        };
        previous = f.atMs;
        return row;
      }),
    };
  }
  return {
    live: true,
    rows: buffer.chunks.map((content, index) => ({
      index,
      atMs: buffer.atMs[index] ?? 0,
      gapMs: buffer.gapMs[index] ?? 0,
      data: JSON.stringify({ content }),
    })),
  };
}

function Frames({ reply, buffer }: { reply: ReplyTurn; buffer: StreamBuffer }) {
  const [shown, setShown] = useState(PAGE);
  const [slowOnly, setSlowOnly] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>();
  const { rows, live } = rowsOf(reply, buffer);
  const visible = slowOnly ? rows.filter((r) => r.gapMs > SLOW_GAP_MS) : rows;
  // A long stream's raw frames stay in the core until asked for (they are megabytes).
  const waiting = live && reply.frameCount !== undefined;
  const load = async (): Promise<void> => {
    setLoading(true);
    setError(undefined);
    try {
      await framesOf(reply);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="pg-frames">
      <div className="pg-frames-head">
        <strong>
          {waiting
            ? `Chunks (${rows.length})`
            : live
              ? `Chunks so far (${rows.length})`
              : `Raw frames (${rows.length})`}
        </strong>
        {waiting ? (
          <button type="button" className="secondary small" disabled={loading} onClick={() => void load()}>
            {loading ? 'Loading…' : `Load the ${reply.frameCount?.toLocaleString('en-US')} raw frames`}
          </button>
        ) : null}
        <label className="pg-check">
          <input type="checkbox" checked={slowOnly} onChange={(e) => setSlowOnly(e.target.checked)} />
          only gaps over 1 s
        </label>
      </div>
      <ol className="pg-frame-list" aria-label="Frames">
        {visible.slice(0, shown).map((r) => (
          <li key={r.index} className={r.gapMs > SLOW_GAP_MS ? 'pg-frame slow' : 'pg-frame'}>
            <span className="pg-frame-at">+{Math.round(r.atMs)} ms</span>
            <span className="pg-frame-gap">{r.index === 0 ? '' : `Δ${Math.round(r.gapMs)}`}</span>
            <code className="pg-frame-data">{r.data.length > 300 ? `${r.data.slice(0, 300)}…` : r.data}</code>
          </li>
        ))}
      </ol>
      {error ? <ErrorMessage error={error} /> : null}
      {visible.length > shown ? (
        <button type="button" className="secondary small" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, visible.length - shown)} more of {visible.length - shown}
        </button>
      ) : null}
    </div>
  );
}

export const StreamInspector = memo(function StreamInspector({
  reply,
  buffer,
  compact = false,
}: {
  reply: ReplyTurn;
  buffer: StreamBuffer;
  compact?: boolean;
}) {
  useBufferVersion(buffer);
  const [open, setOpen] = useState(false);
  const f = figuresOf(reply, buffer);
  const streamed = reply.request.stream;
  const ended = reply.frames !== undefined || reply.frameCount !== undefined;
  const noDone = streamed && ended && !(reply.sawDone ?? sawDone(reply.frames));
  return (
    <aside className={compact ? 'pg-inspector compact' : 'pg-inspector'} aria-label="Stream inspector">
      {reply.fromHistory ? (
        <p className="muted">
          Reopened from this console’s record: stream timing is kept only while the page is open.
        </p>
      ) : reply.status === 'failed' && !ended && buffer.length === 0 ? (
        <p className="muted">No reply: the request failed before any answer arrived.</p>
      ) : (
        <dl className="pg-figures">
          <div>
            <dt>first chunk</dt>
            <dd data-testid="ttfc">{streamed ? ms(f.firstChunkMs) : 'not streamed'}</dd>
          </div>
          <div>
            <dt>total</dt>
            <dd data-testid="total">{ms(f.totalMs)}</dd>
          </div>
          {streamed ? (
            <>
              <div>
                <dt>chunks</dt>
                <dd data-testid="chunk-count">{f.chunks.toLocaleString('en-US')}</dd>
              </div>
              <div>
                <dt>chunks/s</dt>
                <dd>{f.perSecond === undefined ? '—' : Math.round(f.perSecond).toLocaleString('en-US')}</dd>
              </div>
            </>
          ) : null}
        </dl>
      )}
      {f.gapsOverSlow > 0 ? (
        <p className="pg-warn-line">
          {f.gapsOverSlow} gap{f.gapsOverSlow > 1 ? 's' : ''} over 1 s (longest {ms(f.maxGapMs)})
        </p>
      ) : null}
      {noDone ? (
        <p className="pg-warn-line" role="note">
          {reply.status === 'stopped'
            ? 'Stopped before [DONE].'
            : 'The stream ended without [DONE]: the reply may be incomplete.'}
        </p>
      ) : null}
      {reply.requestId ? (
        <p className="pg-request-id">
          request <code>{reply.requestId}</code>
        </p>
      ) : null}
      {reply.fromHistory ? null : (
        <button
          type="button"
          className="secondary small"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide details' : 'Details'}
        </button>
      )}
      {open ? (
        <div className="pg-inspector-detail">
          {reply.timing?.headersMs !== undefined ? <p>Headers after {ms(reply.timing.headersMs)}</p> : null}
          {reply.requestId ? (
            <RateHeaders requestId={reply.requestId} />
          ) : (
            <p className="muted">No request id yet.</p>
          )}
          {streamed ? <Frames reply={reply} buffer={buffer} /> : null}
        </div>
      ) : null}
    </aside>
  );
});
