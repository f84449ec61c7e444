// A second writer of settings.json for the fault suite, as the CLI is beside a running app: adds
// `count` profiles named `<prefix>-<n>`, one settings update each (argv: dataDir prefix count).
import { openSettingsStore } from '../../electron/core/settings-store';

const [dataDir = '', prefix = 'p', count = '50'] = process.argv.slice(2);
const { store } = openSettingsStore(dataDir);
for (let i = 0; i < Number(count); i++) {
  store.update((draft) => {
    draft.profiles.push({
      id: `${prefix}-${i}`,
      name: `${prefix}-${i}`,
      baseUrl: 'https://example.test',
      keyId: 'k',
    });
  });
}
process.stdout.write('DONE\n');
