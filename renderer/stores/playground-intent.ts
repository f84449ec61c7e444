// What another screen asks the playground to open with: an agent picked in the Agents browser, or a
// conversation to continue under its session id. It only carries the request across the screen
// switch; the playground takes it (reads and clears it) when it shows, so an intent applies once.
import { create } from 'zustand';
import { useNavigation } from './navigation';

export interface PlaygroundIntent {
  /** Agent slug to preselect. */
  agent?: string;
  /** Session id to continue: messages go to that same conversation on the service. */
  sessionId?: string;
}

export const usePlaygroundIntent = create<PlaygroundIntent>(() => ({}));

export function openInPlayground(intent: PlaygroundIntent): void {
  usePlaygroundIntent.setState(
    {
      ...(intent.agent ? { agent: intent.agent } : {}),
      ...(intent.sessionId ? { sessionId: intent.sessionId } : {}),
    },
    true,
  );
  useNavigation.getState().go('Playground');
}

/** Returns the pending intent and clears it. */
export function takePlaygroundIntent(): PlaygroundIntent {
  const intent = usePlaygroundIntent.getState();
  usePlaygroundIntent.setState({}, true);
  return intent;
}
