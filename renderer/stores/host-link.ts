// Whether the web host still answers the page (the web transport's event stream): false once it
// drops, true again if it comes back. The desktop app's window cannot outlive its main process, so
// there it stays true.
import { create } from 'zustand';

export const useHostLink = create<{ up: boolean }>(() => ({ up: true }));
