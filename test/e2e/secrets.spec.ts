// docs/security.md: the renderer never sees a secret. Every message that crosses the bridge in a session
// where keys are added and used is recorded in the page itself (fetch and EventSource wrapped before
// the app loads); the only one that may hold a secret is the keys:add call that carries what the
// user typed. Nothing the core sends back, no event, no page, no storage holds one.
import { addKey, addProfile } from './account-steps';
import { expect, screenshotPath, test } from './fixtures';

const KEY_SHAPED = /[A-Za-z0-9]{3}_[A-Za-z0-9]{32}/;

test('no secret crosses the bridge towards the renderer, nor sits in the DOM or storage', async ({
  page,
  host,
  mock,
}) => {
  await page.addInitScript(() => {
    const log: { direction: 'to-core' | 'to-renderer'; call: string; text: string }[] = [];
    (window as unknown as { __bridgeLog: typeof log }).__bridgeLog = log;
    const realFetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      log.push({ direction: 'to-core', call: url, text: String(init?.body ?? '') });
      const response = await realFetch(input, init);
      log.push({ direction: 'to-renderer', call: url, text: await response.clone().text() });
      return response;
    };
    const realAdd = EventSource.prototype.addEventListener;
    EventSource.prototype.addEventListener = function (
      this: EventSource,
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: boolean | AddEventListenerOptions,
    ) {
      const wrapped = (event: Event) => {
        log.push({
          direction: 'to-renderer',
          call: `event:${type}`,
          text: String((event as MessageEvent).data),
        });
        if (typeof listener === 'function') listener.call(this, event);
        else listener.handleEvent(event);
      };
      realAdd.call(this, type, wrapped, options);
    } as typeof EventSource.prototype.addEventListener;
  });
  const hostResponses: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().includes('/bridge/events')) hostResponses.push(await response.text().catch(() => ''));
  });

  await page.goto(host.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  const secret = mock.keys.ultra;

  // Add a key, make a profile with it, use it, and look at everything that shows requests.
  await addKey(page, { name: 'ultra', secret, server: mock.baseUrl });
  await addProfile(page, {
    name: 'Ultra',
    baseUrl: mock.baseUrl,
    key: { name: 'ultra', secret },
    ca: mock.ca,
  });
  const card = page.getByRole('listitem', { name: 'Ultra' });
  await card.getByRole('button', { name: 'Use' }).click();
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('status')).toContainText('Connected in');
  await page.getByRole('link', { name: 'Log' }).click();
  await page.getByRole('table', { name: 'Requests' }).getByRole('row').nth(1).click();
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  await expect(page.getByLabel('curl command')).toBeVisible();
  await page.screenshot({ path: screenshotPath('secrets-session') });

  const log = await page.evaluate(
    () =>
      (window as unknown as { __bridgeLog: { direction: string; call: string; text: string }[] }).__bridgeLog,
  );
  expect(log.filter((m) => m.direction === 'to-renderer').length).toBeGreaterThan(10);
  expect(log.some((m) => m.call.startsWith('event:log:added'))).toBe(true);
  const carrying = log.filter((m) => m.text.includes(secret));
  expect(carrying.map((m) => `${m.direction} ${new URL(m.call, host.origin).pathname}`)).toEqual([
    'to-core /bridge/call/keys:add',
  ]);
  // The embedded mock's own demo key is used on every call of the first profile, and never shown.
  for (const demo of Object.values(mock.keys).filter((k) => k !== secret)) {
    expect(log.some((m) => m.text.includes(demo))).toBe(false);
  }
  expect(log.filter((m) => m.direction === 'to-renderer' && KEY_SHAPED.test(m.text))).toEqual([]);

  expect(await page.content()).not.toMatch(KEY_SHAPED);
  const storage = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
  );
  expect(storage).not.toMatch(KEY_SHAPED);
  expect(hostResponses.length).toBeGreaterThan(5);
  expect(hostResponses.filter((text) => KEY_SHAPED.test(text))).toEqual([]);
});
