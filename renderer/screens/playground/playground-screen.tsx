// The chat playground: sessions on the left; the agent, stream and compare choices, the
// transcript (or the comparisons) and the composer on the right.
import { useEffect, useRef } from 'react';
import { AgentPicker, CompareAgentPicker } from './agent-picker';
import { CompareView } from './compare-view';
import { Composer } from './composer';
import { CurlPastePanel } from './curl-paste-panel';
import { newSession, openSession } from './session-actions';
import { reopenedSessionId, usePlayground, type Mode } from './playground-store';
import { useActiveProfileId } from '../../data/profiles';
import { SessionBar } from './session-bar';
import { SessionSidebar } from './session-sidebar';
import { takePlaygroundIntent, usePlaygroundIntent } from '../../stores/playground-intent';
import { Transcript } from './transcript';
// Frees the buffers of replies no longer shown once they end.
import './buffer-janitor';
import './compare-keep';
// The screen's styles, in cascade order.
import './playground.css';
import './agent-reply.css';
import './stream-inspector.css';
import './compare-view.css';
import './composer.css';
import { ScreenHeading } from '../../shell/screen-heading';

let reopened = false;

/**
 * What the playground opens on: a hand-off from another screen ("Open <agent> in playground",
 * "Continue in playground") when there is one, else, after a reload, the session that was open
 * (once per page). A hand-off is taken once, and also when it arrives while the playground shows.
 */
function useOpening(): void {
  const intent = usePlaygroundIntent();
  useEffect(() => {
    const first = !reopened;
    reopened = true;
    if (intent.agent === undefined && intent.sessionId === undefined) {
      if (first && reopenedSessionId) void openSession(reopenedSessionId);
      return;
    }
    const { agent, sessionId } = takePlaygroundIntent();
    usePlayground.setState({ mode: 'chat', ...(agent !== undefined ? { agent } : {}) });
    if (sessionId !== undefined) void openSession(sessionId, agent);
    else newSession();
  }, [intent]);
}

/** Sessions are recorded per profile: switching profiles starts a new one. */
function useNewSessionOnProfileChange(): void {
  const profileId = useActiveProfileId();
  const previous = useRef(profileId);
  useEffect(() => {
    usePlayground.setState({ profileId });
    if (previous.current !== undefined && profileId !== undefined && previous.current !== profileId)
      newSession();
    previous.current = profileId;
  }, [profileId]);
}

function ModeSwitch() {
  const mode = usePlayground((s) => s.mode);
  const options: [Mode, string][] = [
    ['chat', 'Chat'],
    ['compare', 'Compare'],
  ];
  return (
    <div className="pg-mode" role="radiogroup" aria-label="Mode">
      {options.map(([value, label]) => (
        <label key={value} className={mode === value ? 'on' : undefined}>
          <input
            type="radio"
            name="pg-mode"
            value={value}
            checked={mode === value}
            onChange={() => usePlayground.setState({ mode: value })}
          />
          {label}
        </label>
      ))}
    </div>
  );
}

function StreamToggle() {
  const stream = usePlayground((s) => s.stream);
  return (
    <label className="pg-check pg-stream" title="Off: the reply comes as one JSON document">
      <input
        type="checkbox"
        checked={stream}
        onChange={(e) => usePlayground.setState({ stream: e.target.checked })}
      />
      Stream
    </label>
  );
}

export function PlaygroundScreen() {
  const mode = usePlayground((s) => s.mode);
  useOpening();
  useNewSessionOnProfileChange();
  const sessionId = usePlayground((s) => s.session.id);
  return (
    <section className="screen playground" data-mode={mode}>
      <SessionSidebar />
      <div className="pg-main">
        <div className="pg-toolbar">
          <ScreenHeading>Playground</ScreenHeading>
          <ModeSwitch />
          <StreamToggle />
          {mode === 'chat' ? <AgentPicker /> : <CompareAgentPicker />}
        </div>
        {mode === 'chat' ? <SessionBar /> : null}
        {/* Keyed by session: a closed session's turns leave as one subtree. Reconciled in place, the
            list of 200 long replies left ~370 React fibers behind (npm run bench). */}
        {mode === 'chat' ? <Transcript key={sessionId} /> : <CompareView />}
        <CurlPastePanel />
        <Composer />
      </div>
    </section>
  );
}
