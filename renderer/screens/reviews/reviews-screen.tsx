// Reviews: the queue support staff work through — the active profile's agent replies (or whole
// conversations and threads), newest first, narrowed to those not reviewed yet, reviewed, labelled
// X or given a verdict — with the progress over the scope, j / k (or ↓ / ↑) to the next and
// previous item, the review form beside it, the export, and the team's labels
// (docs/architecture.md, "Reviews").
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { VERDICT_WORDS, VERDICTS, type QueueItem, type Verdict } from '../../../shared/review';
import { ErrorMessage } from '../../components/error-message';
import { LabelSelect } from '../../components/label-select';
import { ReviewSummary } from '../../components/review-chips';
import { ExactTime } from '../../components/relative-time';
import { typingIn } from '../../components/typing-target';
import { useActiveProfileId } from '../../data/profiles';
import { reviewQueueQuery, useLabels, type QueueQuery } from '../../data/reviews';
import { ScreenHeading } from '../../shell/screen-heading';
import { useReviewsView } from '../../stores/reviews-view';
import { LabelsManager } from './labels-manager';
import { QueueItemDetail } from './queue-item-detail';
import { ReviewsExport } from './reviews-export';
import '../../components/browsers.css';
import './reviews-screen.css';

export function ReviewsScreen() {
  const profile = useActiveProfileId();
  const view = useReviewsView();
  const labels = useLabels().data ?? [];
  const query: QueueQuery = {
    target: view.target,
    state: view.state,
    ...(view.label ? { label: view.label } : {}),
    ...(view.verdict ? { verdict: view.verdict } : {}),
    ...(view.agent.trim() ? { agent: view.agent.trim() } : {}),
  };
  const queue = useInfiniteQuery(reviewQueueQuery(profile, query));
  const items = useMemo(() => queue.data?.pages.flatMap((p) => p.items) ?? [], [queue.data]);
  const first = queue.data?.pages[0];
  const selected = Math.min(view.selected, Math.max(items.length - 1, 0));
  const item: QueueItem | undefined = items[selected];

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      const step =
        event.key === 'j' || event.key === 'ArrowDown'
          ? 1
          : event.key === 'k' || event.key === 'ArrowUp'
            ? -1
            : 0;
      if (!step) return;
      event.preventDefault();
      const next = Math.min(Math.max(selected + step, 0), Math.max(items.length - 1, 0));
      useReviewsView.setState({ selected: next });
      if (next >= items.length - 5 && queue.hasNextPage && !queue.isFetchingNextPage)
        void queue.fetchNextPage();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selected, items.length, queue]);
  useEffect(() => {
    document.getElementById(`queue-item-${selected}`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const set = (change: Partial<typeof view>) => useReviewsView.setState({ ...change, selected: 0 });
  const noun = view.target === 'replies' ? 'replies' : 'conversations and threads';
  return (
    <section className="screen reviews">
      <ScreenHeading>Reviews</ScreenHeading>
      <section className="card reviews-queue-head" aria-label="Review queue">
        <div className="reviews-progress">
          <p role="status">
            {first
              ? `${first.reviewed.toLocaleString()} of ${first.inScope.toLocaleString()} ${noun} reviewed`
              : 'Counting…'}
          </p>
          <progress max={first?.inScope || 1} value={first?.reviewed ?? 0} aria-label="Reviewed so far" />
        </div>
        <div className="reviews-filters">
          <label>
            Review{' '}
            <select
              value={view.target}
              onChange={(e) => set({ target: e.target.value as typeof view.target })}
            >
              <option value="replies">agent replies</option>
              <option value="records">whole conversations and threads</option>
            </select>
          </label>
          <label>
            Show{' '}
            <select value={view.state} onChange={(e) => set({ state: e.target.value as typeof view.state })}>
              <option value="unreviewed">not reviewed</option>
              <option value="reviewed">reviewed</option>
              <option value="all">all</option>
            </select>
          </label>
          <LabelSelect labels={labels} value={view.label} onChange={(label) => set({ label })} />
          <label>
            Verdict{' '}
            <select value={view.verdict} onChange={(e) => set({ verdict: e.target.value as Verdict | '' })}>
              <option value="">any</option>
              {VERDICTS.map((v) => (
                <option key={v} value={v}>
                  {VERDICT_WORDS[v]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Agent{' '}
            <input
              value={view.agent}
              maxLength={200}
              placeholder="any"
              onChange={(e) => set({ agent: e.target.value })}
            />
          </label>
          <ReviewsExport label={view.label} />
        </div>
        <p className="muted reviews-keys">
          <kbd>j</kbd> / <kbd>k</kbd> (or <kbd>↓</kbd> / <kbd>↑</kbd>): next / previous item
          {first ? ` · ${first.matching.toLocaleString()} shown by these filters` : ''}
        </p>
      </section>
      {queue.isError ? (
        <ErrorMessage error={queue.error} title="The review queue could not be read." />
      ) : null}
      <div className="reviews-body">
        <ol className="queue-list" aria-label="Items to review">
          {items.map((it, i) => (
            <li key={`${it.kind}:${it.id}:${it.message ?? ''}`} id={`queue-item-${i}`}>
              <button
                type="button"
                className="queue-item"
                aria-current={i === selected ? 'true' : undefined}
                onClick={() => useReviewsView.setState({ selected: i })}
              >
                <span className="queue-item-head">
                  <strong>{it.title ?? it.id}</strong>
                  <span className="muted">
                    {it.kind === 'session' ? 'conversation' : 'thread'} · {it.agent} ·{' '}
                    <ExactTime iso={it.at} />
                  </span>
                </span>
                <span className="queue-item-text">{it.text || '(no text)'}</span>
                <ReviewSummary review={it.review} labels={labels} />
              </button>
            </li>
          ))}
          {queue.hasNextPage ? (
            <li>
              <button type="button" className="secondary" onClick={() => void queue.fetchNextPage()}>
                Show more
              </button>
            </li>
          ) : null}
        </ol>
        {item ? (
          <QueueItemDetail
            item={item}
            place={selected + 1}
            count={first?.matching ?? items.length}
            labels={labels}
          />
        ) : queue.isPending ? (
          <p className="muted">Reading the queue…</p>
        ) : (
          <p className="card note queue-empty">
            {view.state === 'unreviewed'
              ? `Nothing left to review: every one of these ${noun} has a review.`
              : `No ${noun} match these filters.`}
          </p>
        )}
      </div>
      <LabelsManager labels={labels} />
    </section>
  );
}
