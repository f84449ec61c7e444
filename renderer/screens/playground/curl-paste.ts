// A curl command pasted into the Playground (docs/security.md, "Imported curl and HAR"): read by
// shared/curl-import.ts in the paste's own handler, so the command's text is never in the box,
// the store or browser storage; only what it was read as — with no key in it — is kept, and the
// composer takes its agent, message, session id and stream setting.
import { create } from 'zustand';
import { CurlImportError, importCurl, type CurlImport } from '../../../shared/curl-import';
import { switchProfile } from '../../data/profiles';
import { usePlayground } from './playground-store';
import { openSession } from './session-actions';

/** What the last paste was read as, shown above the composer until dismissed. */
export type CurlPasted = { result: CurlImport } | { error: string };

export const useCurlPaste = create<{ pasted?: CurlPasted }>(() => ({}));

export function pasteCurl(command: string): void {
  let result: CurlImport;
  try {
    result = importCurl(command);
  } catch (error) {
    // The parser's words never repeat the command; anything else is said without it.
    const message = error instanceof CurlImportError ? error.message : 'The command could not be read.';
    useCurlPaste.setState({ pasted: { error: message } });
    return;
  }
  useCurlPaste.setState({ pasted: { result } });
  if (result.kind !== 'chat') return;
  usePlayground.setState({
    mode: 'chat',
    stream: result.stream,
    ...(result.agent ? { agent: result.agent } : {}),
    ...(result.message !== undefined ? { draft: result.message, draftNote: undefined } : {}),
  });
  if (result.sessionId) void openSession(result.sessionId, result.agent);
}

export function dismissCurlPaste(): void {
  useCurlPaste.setState({ pasted: undefined });
}

/**
 * Makes `profileId` active for the pasted chat. Switching profiles starts a new session
 * (playground-screen.tsx), so the command's session is opened again once that has happened.
 */
export async function chooseProfileForPaste(profileId: string): Promise<void> {
  const pasted = useCurlPaste.getState().pasted;
  const sessionId =
    pasted && 'result' in pasted && pasted.result.kind === 'chat' ? pasted.result.sessionId : undefined;
  await switchProfile(profileId);
  if (!sessionId) return;
  await new Promise<void>((resolve) => {
    if (usePlayground.getState().profileId === profileId) return resolve();
    const stop = usePlayground.subscribe((state) => {
      if (state.profileId !== profileId) return;
      stop();
      // After the screen's own reaction to the switch, in the same update, has run.
      setTimeout(resolve, 0);
    });
  });
  const agent = usePlayground.getState().agent;
  await openSession(sessionId, agent);
}
