// A server another screen asks the Profiles screen to start a new profile for (a pasted curl
// command's server with no profile yet). Like the playground's intent, it is taken once.
import { create } from 'zustand';
import { useNavigation } from './navigation';

const useProfileIntent = create<{ baseUrl?: string }>(() => ({}));

export function newProfileFor(baseUrl: string): void {
  useProfileIntent.setState({ baseUrl }, true);
  useNavigation.getState().go('Profiles');
}

/** The pending server, cleared. */
export function takeProfileIntent(): string | undefined {
  const { baseUrl } = useProfileIntent.getState();
  useProfileIntent.setState({}, true);
  return baseUrl;
}
