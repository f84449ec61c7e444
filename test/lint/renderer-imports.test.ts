// The renderer's import rules (eslint.config.js) fire where they should and only there: a source
// is linted with the project's own config as if it lived at a path in the renderer.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

/** The `no-restricted-imports` messages for `source` linted as the file at `filePath`. */
async function refusals(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const ONLY_DATA = 'Only renderer/data/ calls the bridge';
const BY_PROPS = 'renderer/components/ take their data through props';
const DATA_NO_UI = 'renderer/data/ knows nothing of the UI';

describe('only renderer/data/ reaches the bridge', () => {
  it.each([
    ['renderer/screens/keys/keys-screen.tsx', "import { bridge } from '../../bridge';"],
    ['renderer/shell/mute-toggle.tsx', "import { bridge } from '../bridge';"],
    ['renderer/stores/live.ts', "import { webTransport } from '../bridge/web-transport';"],
    ['renderer/main.tsx', "import { bridge } from './bridge';"],
  ])('%s may not import it', async (file, source) => {
    expect(await refusals(file, source)).toEqual([expect.stringContaining(ONLY_DATA)]);
  });

  it('renderer/data/ and the transport may, and anyone may import the contract in shared/', async () => {
    expect(await refusals('renderer/data/keys.ts', "import { bridge } from '../bridge';")).toEqual([]);
    expect(
      await refusals('renderer/bridge/index.ts', "import { webTransport } from './web-transport';"),
    ).toEqual([]);
    expect(
      await refusals(
        'renderer/screens/keys/keys-screen.tsx',
        "import type { KeyInfo } from '../../../shared/bridge';",
      ),
    ).toEqual([]);
  });
});

describe('renderer/components/ take their data through props', () => {
  it.each([
    "import { useRate } from '../stores/live';",
    "import { useKeys } from '../data/keys';",
    "import { bridge } from '../bridge';",
    "import { MuteToggle } from '../shell/mute-toggle';",
  ])('a component may not: %s', async (source) => {
    const messages = await refusals('renderer/components/some-piece.tsx', source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(new RegExp(`${BY_PROPS}|${ONLY_DATA}`));
  });

  it('a component may import another, and the shell and screens may read data and stores', async () => {
    expect(await refusals('renderer/components/some-piece.tsx', "import { Pager } from './pager';")).toEqual(
      [],
    );
    expect(
      await refusals('renderer/shell/rate-gauge.tsx', "import { useRate } from '../stores/live';"),
    ).toEqual([]);
    expect(
      await refusals('renderer/screens/keys/keys-screen.tsx', "import { useKeys } from '../../data/keys';"),
    ).toEqual([]);
  });
});

describe('renderer/data/ knows nothing of the UI', () => {
  it.each([
    "import { useRate } from '../stores/live';",
    "import { ErrorMessage } from '../components/error-message';",
    "import { RateGauge } from '../shell/rate-gauge';",
  ])('data/ may not: %s', async (source) => {
    expect(await refusals('renderer/data/some-domain.ts', source)).toEqual([
      expect.stringContaining(DATA_NO_UI),
    ]);
  });
});
