// The events both transports forward are derived from the contract: the preload and the web
// transport subscribe to each name in BRIDGE_EVENTS, so an event left out would reach no window.
import { expect, expectTypeOf, test } from 'vitest';
import { BRIDGE_CALLS, type BridgeEvent } from '../../shared/bridge';
import { BRIDGE_EVENTS } from '../../shared/bridge-api';

test("the forwarded events are exactly the contract's events, each once", () => {
  // Checked by the compiler (`npm test` type-checks the tests): neither side has a name the other lacks.
  expectTypeOf<(typeof BRIDGE_EVENTS)[number]>().toEqualTypeOf<BridgeEvent>();
  expect(new Set(BRIDGE_EVENTS).size).toBe(BRIDGE_EVENTS.length);
  const domains = new Set(Object.keys(BRIDGE_CALLS).map((call) => call.split(':')[0]));
  for (const event of BRIDGE_EVENTS) {
    expect(event).toMatch(/^[a-z]+:[a-zA-Z]+$/);
    expect(domains, `${event} belongs to a domain of the contract`).toContain(event.split(':')[0]);
  }
});
