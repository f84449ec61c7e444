// The Help menu's "Copy Diagnostics", with Electron's Menu and clipboard replaced by stand-ins.
import { describe, expect, it, vi } from 'vitest';

const writeText = vi.fn();
vi.mock('electron', () => ({
  app: { getVersion: () => '0.0.0', setAboutPanelOptions: vi.fn() },
  clipboard: { writeText },
  Menu: { buildFromTemplate: (template: unknown) => template },
  shell: { openPath: vi.fn(async () => '') },
}));

const { buildAppMenu } = await import('../../electron/shell/menu');

interface Item {
  label?: string;
  role?: string;
  click?: () => void;
  submenu?: Item[];
}

function helpItem(menu: unknown, label: string): Item | undefined {
  const help = (menu as Item[]).find((item) => item.role === 'help');
  return help?.submenu?.find((item) => item.label === label);
}

describe('Help › Copy Diagnostics', () => {
  it('puts the core’s diagnostics text on the clipboard', () => {
    const menu = buildAppMenu({
      dev: false,
      dataDir: '/tmp/x',
      diagnostics: () => 'Agent Console 1.2.3\nLast log lines:',
      onError: vi.fn(),
    });
    helpItem(menu, 'Copy Diagnostics')?.click?.();
    expect(writeText).toHaveBeenCalledWith('Agent Console 1.2.3\nLast log lines:');
  });

  it('reports a failure instead of throwing from the menu', () => {
    const onError = vi.fn();
    const menu = buildAppMenu({
      dev: false,
      dataDir: '/tmp/x',
      diagnostics: () => {
        throw new Error('settings unreadable');
      },
      onError,
    });
    helpItem(menu, 'Copy Diagnostics')?.click?.();
    expect(onError).toHaveBeenCalledWith('Could not copy the diagnostics: settings unreadable');
  });
});
