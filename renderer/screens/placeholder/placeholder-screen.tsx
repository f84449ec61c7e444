import type { Screen } from '../../stores/navigation';

const WHAT: Partial<Record<Screen, string>> = {
  Playground: 'Chat with an agent, watch the stream arrive with its timing, and compare agents side by side.',
  Threads: 'Browse, create and continue threads.',
  Conversations: 'Find a conversation by agent or session and see what is known of its history.',
  Agents: 'Every agent with its status, models and deployment time.',
  Usage: 'Requests, tokens and latency over time, by agent.',
  Health: 'The service’s health, polled every 60 seconds, with its history.',
};

/** Screens that later releases fill; each says what it will do. */
export function PlaceholderScreen({ screen }: { screen: Screen }) {
  return (
    <section className="screen placeholder">
      <h2>{screen}</h2>
      <p>{WHAT[screen]}</p>
      <p className="muted">This screen arrives in a coming release.</p>
    </section>
  );
}
