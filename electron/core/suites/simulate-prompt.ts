// What a simulating agent is sent each turn of a simulated conversation (README, "Simulated
// conversations"): a template a case may replace (`simulate.prompt`), filled with the goal, the
// persona and the transcript so far; its whole answer is the user's next message.
import { placeholderProblem } from './judge-prompt';

/** The template sent to the agent that plays the user, unless the case gives its own. */
export const DEFAULT_SIMULATE_PROMPT = `You play the user of an AI agent, to test it. Stay in character and write as that user would.

<persona>
{{persona}}
</persona>

<goal>
{{goal}}
</goal>

<conversation>
{{conversation}}
</conversation>

Write the user's next message to the agent, and nothing else.`;

const SIMULATE_PLACEHOLDERS = ['goal', 'persona', 'conversation'] as const;

/** What is wrong with a case's simulate prompt, in words; undefined when nothing is. */
export function simulatePromptProblem(template: string): string | undefined {
  return placeholderProblem(template, SIMULATE_PLACEHOLDERS, ['goal', 'conversation'], {
    prompt: 'a simulate prompt',
    without: 'the simulated user cannot pursue a goal or answer what it cannot read',
  });
}
