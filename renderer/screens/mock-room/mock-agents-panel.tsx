import { useState } from 'react';
import type { MockStateView } from '../../../shared/bridge';
import { useFixtures } from '../../data/mock';
import { useAssignFixture, useClearFixture, useSetMockAgent } from '../../data/mock-actions';
import type { PanelProps } from './chaos-panel';
import { ScrollRegion } from '../../components/scroll-region';

type MockAgent = MockStateView['agents'][number];

function AgentRow({ agent, act }: { agent: MockAgent; act: PanelProps['act'] }) {
  const fixtures = useFixtures();
  const setAgent = useSetMockAgent();
  const assignFixture = useAssignFixture();
  const clearFixture = useClearFixture();
  const [tuning, setTuning] = useState({
    latencyMs: agent.latencyMs,
    chunkDelayMs: agent.chunkDelayMs,
    chunkCount: agent.chunkCount,
  });
  const [fixtureId, setFixtureId] = useState('');
  const [mode, setMode] = useState<'original' | 'scaled' | 'fast'>('original');
  const number = (key: keyof typeof tuning) => ({
    value: tuning[key],
    min: key === 'chunkCount' ? 1 : 0,
    type: 'number',
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setTuning({ ...tuning, [key]: Number(e.target.value) }),
  });
  return (
    <tr aria-label={`Mock agent ${agent.slug}`}>
      <td>
        <strong>{agent.name}</strong> <code>{agent.slug}</code>
      </td>
      <td>
        <select
          aria-label={`Status of ${agent.slug}`}
          value={agent.status}
          onChange={(e) =>
            void act(() =>
              setAgent.mutateAsync({ slug: agent.slug, status: e.target.value as MockAgent['status'] }),
            )
          }
        >
          <option value="deployed">deployed</option>
          <option value="stopped">stopped (404)</option>
          <option value="error">error (502)</option>
        </select>
      </td>
      <td>
        <input aria-label={`Latency of ${agent.slug} (ms)`} className="mock-num" {...number('latencyMs')} />
      </td>
      <td>
        <input
          aria-label={`Pace of ${agent.slug} (ms between chunks)`}
          className="mock-num"
          {...number('chunkDelayMs')}
        />
      </td>
      <td>
        <input
          aria-label={`Length of ${agent.slug} (chunks)`}
          className="mock-num"
          {...number('chunkCount')}
        />
      </td>
      <td>
        <button
          type="button"
          className="secondary"
          onClick={() => void act(() => setAgent.mutateAsync({ slug: agent.slug, ...tuning }))}
        >
          Apply
        </button>
      </td>
      <td>
        {agent.replay ? (
          <span className="mock-replay">
            Replays “{agent.replay.name}” ({agent.replay.chunks} chunks, {agent.replay.mode}){' '}
            <button
              type="button"
              className="link"
              onClick={() => void act(() => clearFixture.mutateAsync(agent.slug))}
            >
              Stop replaying
            </button>
          </span>
        ) : (
          <span className="mock-replay">
            <select
              aria-label={`Fixture for ${agent.slug}`}
              value={fixtureId}
              onChange={(e) => setFixtureId(e.target.value)}
            >
              <option value="">Replay a fixture…</option>
              {fixtures.data?.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name} ({f.chunkCount} chunks)
                </option>
              ))}
            </select>
            <select
              aria-label={`Replay timing for ${agent.slug}`}
              value={mode}
              onChange={(e) => setMode(e.target.value as typeof mode)}
            >
              <option value="original">original timing</option>
              <option value="scaled">half speed</option>
              <option value="fast">as fast as possible</option>
            </select>
            <button
              type="button"
              className="secondary"
              disabled={!fixtureId}
              onClick={() =>
                void act(() =>
                  assignFixture.mutateAsync({
                    slug: agent.slug,
                    fixtureId,
                    mode,
                    ...(mode === 'scaled' ? { scale: 2 } : {}),
                  }),
                )
              }
            >
              Assign
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}

export function MockAgentsPanel({ state, act }: PanelProps) {
  return (
    <section className="card" aria-label="Mock agents">
      <h2>Agents</h2>
      <ScrollRegion label="Agents table">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Status</th>
              <th scope="col">Latency ms</th>
              <th scope="col">Pace ms</th>
              <th scope="col">Length</th>
              <th scope="col">
                <span className="visually-hidden">Apply</span>
              </th>
              <th scope="col">Recorded reply</th>
            </tr>
          </thead>
          <tbody>
            {state.agents.map((a) => (
              <AgentRow
                key={`${a.slug}:${a.latencyMs}:${a.chunkDelayMs}:${a.chunkCount}`}
                agent={a}
                act={act}
              />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
