// The Mock screen: the embedded mock run like the service's dashboard — keys, agents,
// health, error shape, chaos presets, recorded replies — plus what the mock itself received.
import { useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { ChaosPanel } from './chaos-panel';
import { FixturesPanel } from './fixtures-panel';
import { MockAgentsPanel } from './mock-agents-panel';
import { MockKeysPanel } from './mock-keys-panel';
import { useMockState } from '../../data/mock';
import { MockRequestsPanel, MockServicePanel } from './mock-service-panel';
import './mock.css';
import { ScreenHeading } from '../../shell/screen-heading';

export function MockScreen() {
  const state = useMockState();
  const [error, setError] = useState<unknown>();
  /** Every action goes through here, so a refusal shows in one place, in words. */
  const act = async (run: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await run();
    } catch (e) {
      setError(e);
    }
  };
  if (state.isError) return <ErrorMessage error={state.error} title="The mock's state could not be read." />;
  if (state.isSuccess && state.data === null) {
    return (
      <section className="screen">
        <ScreenHeading>Mock</ScreenHeading>
        <p className="note">
          The embedded mock runs in another process (npm run mock): control it there with{' '}
          <code>agent-console mock …</code>.
        </p>
      </section>
    );
  }
  if (!state.data) return <p className="muted">Loading the mock…</p>;
  return (
    <section className="screen mock-screen">
      <ScreenHeading>Mock</ScreenHeading>
      <p className="note">
        The embedded mock of the service, run like its dashboard. Changes here are what your integration would
        see from the real service.
      </p>
      {error ? <ErrorMessage error={error} /> : null}
      <ChaosPanel state={state.data} act={act} />
      <MockKeysPanel state={state.data} act={act} />
      <MockAgentsPanel state={state.data} act={act} />
      <MockServicePanel state={state.data} act={act} />
      <FixturesPanel act={act} />
      <MockRequestsPanel />
    </section>
  );
}
