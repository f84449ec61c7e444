// The Settings screen as a person opens it in the browser: the console's version and data folder,
// and the updates section saying that updates come with the desktop app (the web host has none;
// the desktop app's updates are driven in test/packaging/packaged-launch.test.ts).
import { expect, screenshotLightAndDark, test } from './fixtures';

test('Settings: version, data folder, and where updates come from', async ({ app, core }) => {
  await app.getByRole('link', { name: 'Settings' }).click();
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const about = app.getByRole('region', { name: 'This console' });
  await expect(about.getByRole('term')).toHaveText(['Version', 'Data folder']);
  await expect(about).toContainText(core.dataDir);
  const updates = app.getByRole('region', { name: 'Updates' });
  await expect(updates).toContainText('updates come with the desktop app');
  await expect(updates.getByRole('checkbox')).toHaveCount(0);
  await screenshotLightAndDark(app, 'settings');
});
