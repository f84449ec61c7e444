// The bridge: the one contract between the renderer and the core, one file per domain. Every call
// is `domain:action` with a zod schema for its input, checked on the main side because the renderer
// is untrusted; outputs and events are typed beside them. Electron IPC and the web host's HTTP + SSE
// carry exactly these calls and events, and nothing else (docs/architecture.md, the picture).
import type { z } from 'zod';
import { AGENTS_CALLS } from './agents';
import { APP_CALLS, type AppEvents } from './app';
import { CHAT_CALLS, type ChatEvents } from './chat';
import { CONVERSATIONS_CALLS } from './conversations';
import { HEALTH_CALLS, type HealthEvents } from './health';
import { KEYS_CALLS, type KeysEvents } from './keys';
import { LOG_CALLS, type LogEvents } from './log';
import { MOCK_CALLS, type MockEvents } from './mock';
import { MONITORS_CALLS, type MonitorsEvents } from './monitors';
import { PROFILES_CALLS, type ProfilesEvents } from './profiles';
import { RATE_CALLS, type RateEvents } from './rate';
import { REVIEWS_CALLS } from './reviews';
import { SUITES_CALLS, type SuitesEvents } from './suites';
import { THREADS_CALLS } from './threads';
import { TRANSCRIPTS_CALLS } from './transcripts';
import { USAGE_CALLS } from './usage';

export type { AppInfo, UpdateStatus } from './app';
export type { LiveStream, StreamChunkEvent, StreamEndEvent } from './chat';
export { INLINE_FRAMES } from './chat';
export type { KeyInfo } from './keys';
export type { MockStateView } from './mock';
export type { ConnectionTest, ProfileInfo } from './profiles';
export type { RateState } from './rate';
export type { BridgeError, BridgeResult } from './result';
export type { SuitesProgress } from './suites';

export const BRIDGE_CALLS = {
  ...APP_CALLS,
  ...KEYS_CALLS,
  ...PROFILES_CALLS,
  ...RATE_CALLS,
  ...LOG_CALLS,
  ...AGENTS_CALLS,
  ...CONVERSATIONS_CALLS,
  ...THREADS_CALLS,
  ...USAGE_CALLS,
  ...HEALTH_CALLS,
  ...MONITORS_CALLS,
  ...CHAT_CALLS,
  ...TRANSCRIPTS_CALLS,
  ...REVIEWS_CALLS,
  ...MOCK_CALLS,
  ...SUITES_CALLS,
};

export type BridgeCall = keyof typeof BRIDGE_CALLS;
/** What the renderer passes to a call (before the main side's schema applies defaults). */
export type BridgeInput<K extends BridgeCall> = z.input<(typeof BRIDGE_CALLS)[K]['input']>;
/** What a handler receives: the input after validation. */
export type BridgeParsedInput<K extends BridgeCall> = z.output<(typeof BRIDGE_CALLS)[K]['input']>;
export type BridgeOutputs = { [K in BridgeCall]: (typeof BRIDGE_CALLS)[K]['output'] };

/** Every event the core sends the renderer, by name, with its payload. */
export type BridgeEvents = AppEvents &
  RateEvents &
  LogEvents &
  KeysEvents &
  ProfilesEvents &
  ChatEvents &
  HealthEvents &
  MonitorsEvents &
  MockEvents &
  SuitesEvents;

export type BridgeEvent = keyof BridgeEvents;
