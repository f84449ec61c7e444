// Opening a recorded conversation or thread at one of its messages: from a search hit, the review
// queue, or an in-app link (`#/conversations/<session id>?message=3`, shared/review.ts) in the web
// host's address bar — the link the reviews export gives each row (docs/architecture.md, "Reviews").
import { readHistoryLink, type ReviewTarget } from '../../shared/review';
import { useConversationsView } from './conversations-view';
import { useFoundMessage } from './found-message';
import { useNavigation } from './navigation';
import { useThreadsView } from './threads-view';

/** Shows the record in its screen, scrolled to the message (when one is named) and marked. */
export function openHistory(target: ReviewTarget): void {
  useFoundMessage.setState({
    found:
      target.message === undefined ? undefined : { kind: target.kind, id: target.id, index: target.message },
  });
  if (target.kind === 'session') {
    useConversationsView.setState({ selected: { sessionId: target.id } });
    useNavigation.getState().go('Conversations');
  } else {
    useThreadsView.setState({ selectedId: target.id, selectedRow: undefined });
    useNavigation.getState().go('Threads');
  }
}

/** Opens an in-app link; false when the text is none. */
export function openHistoryLink(link: string): boolean {
  const target = readHistoryLink(link);
  if (target) openHistory(target);
  return target !== undefined;
}

/** Follows an in-app link in the page's address, at start and whenever it changes. */
export function followHistoryLinks(): () => void {
  const follow = () => void openHistoryLink(window.location.hash);
  follow();
  window.addEventListener('hashchange', follow);
  return () => window.removeEventListener('hashchange', follow);
}
