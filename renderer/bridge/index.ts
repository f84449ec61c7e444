// The renderer's only way to the core: the preload's `window.agentConsole` in the desktop app, the
// same API over HTTP in the web host.
import { createBridgeApi, type BridgeApi } from '../../shared/bridge-api';
import { webTransport } from './web-transport';

declare global {
  interface Window {
    agentConsole?: BridgeApi;
  }
}

export const bridge: BridgeApi = window.agentConsole ?? createBridgeApi(webTransport());
