// The history search box, from every screen: the button atop the navigation, Ctrl+K (⌘K), or "/" when no field
// has the keyboard. It searches everything this console recorded for the active profile (messages,
// replies, errors) as the CLI's `agent-console search` does, shows each hit's snippet with the match
// marked, and opens one in its conversation or thread, scrolled to that message.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHit } from '../../shared/transcript';
import { ErrorMessage } from '../components/error-message';
import { ExactTime } from '../components/relative-time';
import { LabelSelect } from '../components/label-select';
import { typingIn } from '../components/typing-target';
import { useActiveProfileId } from '../data/profiles';
import { useLabels } from '../data/reviews';
import { historySearchQuery, type HistorySearchInput } from '../data/transcripts';
import { openHistory } from '../stores/history-link';
import { useSaveCaseIntent } from '../stores/save-case-intent';
import './history-search.css';

function openHit(hit: SearchHit): void {
  openHistory({ kind: hit.kind, id: hit.id, message: hit.index });
}

function Snippet({ hit }: { hit: SearchHit }) {
  // Parts, never markup from the database: a match is a <mark> element with the text inside.
  return (
    <span className="search-snippet">
      {hit.snippet.map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
      )}
    </span>
  );
}

function Results({
  search,
  onOpen,
}: {
  search: HistorySearchInput;
  onOpen: (hit: SearchHit, then?: 'save-as-case') => void;
}) {
  const profile = useActiveProfileId();
  const results = useQuery(historySearchQuery(profile, search));
  const list = useRef<HTMLOListElement>(null);
  if (!search.text.trim())
    return <p className="muted search-hint">Words match anywhere, “a phrase” in order, refu* as a prefix.</p>;
  if (results.isError)
    return <ErrorMessage error={results.error} title="The history could not be searched." />;
  if (!results.data) return <p className="muted search-hint">Searching…</p>;
  const { hits, more } = results.data;
  const move = (event: KeyboardEvent, from: number) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button.search-hit');
    const next = from + step;
    if (next < 0) document.getElementById('history-search-box')?.focus();
    else buttons?.[Math.min(next, hits.length - 1)]?.focus();
  };
  return (
    <>
      <p className="muted search-count" role="status">
        {hits.length === 0
          ? 'No recorded message matches.'
          : `${hits.length}${more ? '+' : ''} ${hits.length === 1 ? 'message' : 'messages'}, newest first`}
      </p>
      <ol className="search-results" ref={list}>
        {hits.map((hit, i) => (
          <li key={`${hit.kind}:${hit.id}:${hit.index}`}>
            <button
              type="button"
              className="search-hit"
              onClick={() => onOpen(hit)}
              onKeyDown={(e) => move(e, i)}
            >
              <span className="search-hit-head">
                <strong>{hit.title ?? hit.id}</strong>
                <span className="muted">
                  {hit.kind === 'session' ? 'conversation' : 'thread'} · {hit.agent} ·{' '}
                  {hit.role === 'user' ? 'you' : 'agent'}
                  {hit.status === 'complete' ? '' : ` · ${hit.status}`} · <ExactTime iso={hit.at} />
                </span>
              </span>
              <Snippet hit={hit} />
            </button>
            <button
              type="button"
              className="link search-hit-save"
              aria-label={`Save ${hit.title ?? hit.id} as test case`}
              onClick={() => onOpen(hit, 'save-as-case')}
            >
              Save as test case
            </button>
          </li>
        ))}
      </ol>
      {more ? <p className="muted search-hint">More match: add a word, or narrow by agent or date.</p> : null}
    </>
  );
}

/** The team's labels to narrow by: a message's own review's, or its record's. */
function LabelFilter({ value, onChange }: { value: string; onChange: (label: string) => void }) {
  return <LabelSelect labels={useLabels().data ?? []} value={value} onChange={onChange} />;
}

export function HistorySearch() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [agent, setAgent] = useState('');
  const [since, setSince] = useState('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [reviewed, setReviewed] = useState<'' | 'yes' | 'no'>('');
  const [label, setLabel] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const search: HistorySearchInput = {
    text: useDeferredValue(text),
    ...(agent.trim() ? { agent: agent.trim() } : {}),
    ...(since ? { since: new Date(`${since}T00:00:00`).toISOString() } : {}),
    ...(errorsOnly ? { hasError: true } : {}),
    ...(reviewed ? { reviewed: reviewed === 'yes' } : {}),
    ...(label ? { label } : {}),
  };

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const ctrlK = event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey;
      const slash =
        event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typingIn(event.target);
      if (!ctrlK && !slash) return;
      if (!ctrlK && document.querySelector('dialog[open]')) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (open) document.getElementById('history-search-box')?.focus();
    if (!open && el.open) el.close();
  }, [open]);

  return (
    <>
      <button
        type="button"
        className="secondary search-open"
        onClick={() => setOpen(true)}
        aria-label="Search history"
        title="Search the recorded history (Ctrl+K, or /)"
        aria-keyshortcuts="Control+K /"
      >
        Search <kbd>Ctrl K</kbd>
      </button>
      <dialog
        ref={dialog}
        className="history-search"
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
        onKeyDown={(event) => {
          // Closed here, before a screen's own Escape (a reply's stop, a pane's close) sees the key.
          if (event.key !== 'Escape') return;
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
        }}
      >
        {/* A closed dialog holds nothing: its fields are no one's to find until it opens. */}
        {open ? (
          <>
            <div className="search-head">
              <h2 id={titleId}>Search history</h2>
              <button
                type="button"
                className="secondary"
                onClick={() => setOpen(false)}
                aria-label="Close the search"
              >
                ×
              </button>
            </div>
            <input
              id="history-search-box"
              type="search"
              aria-label="Search the recorded messages"
              placeholder="Order number, words, “a phrase”…"
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== 'ArrowDown') return;
                e.preventDefault();
                dialog.current?.querySelector<HTMLButtonElement>('.search-hit')?.focus();
              }}
              maxLength={500}
              autoComplete="off"
            />
            <div className="search-filters">
              <label>
                Agent{' '}
                <input
                  value={agent}
                  onChange={(e) => setAgent(e.target.value)}
                  maxLength={200}
                  placeholder="any"
                />
              </label>
              <label>
                Since <input type="date" value={since} onChange={(e) => setSince(e.target.value)} />
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={errorsOnly}
                  onChange={(e) => setErrorsOnly(e.target.checked)}
                />{' '}
                Only failed or with errors
              </label>
              <label>
                Reviewed{' '}
                <select value={reviewed} onChange={(e) => setReviewed(e.target.value as typeof reviewed)}>
                  <option value="">either</option>
                  <option value="yes">reviewed</option>
                  <option value="no">not reviewed</option>
                </select>
              </label>
              <LabelFilter value={label} onChange={setLabel} />
            </div>
            <Results
              search={search}
              onOpen={(hit, then) => {
                setOpen(false);
                if (then === 'save-as-case')
                  useSaveCaseIntent.setState({ wanted: { kind: hit.kind, id: hit.id } });
                openHit(hit);
              }}
            />
          </>
        ) : null}
      </dialog>
    </>
  );
}
