import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { prefetchShellData } from './data/shell-data';
import { startLiveStores } from './stores/live';
import { startTheme } from './stores/theme';
import './styles.css';

// The web host's token is in the address only for the first load (the HttpOnly cookie
// carries it from then on): out of the address bar, the history and any copied link.
const address = new URL(window.location.href);
if (address.searchParams.has('token')) {
  address.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', address.pathname + address.search + address.hash);
}

startTheme();
// In the same turn: the shell's data and the live stores' first reads leave as one batch.
prefetchShellData();
startLiveStores();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
