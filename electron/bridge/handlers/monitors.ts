// monitors:… — the Overview: every monitor's row, adding and editing monitors, checking now and a
// test notification. The rules live in the core's registry (electron/core/monitors/).
import type { MonitorView } from '../../../shared/monitor';
import { readIncidentName, saveIncidentName } from '../../core/monitors/incident-name';
import { monitorFromForm } from '../../core/monitors/monitor-edits';
import { publishStatusPage } from '../../core/monitors/status-page-files';
import type { DomainHandlers, HandlerContext } from './context';

/** Rows go out at most this often: a burst of checks is one repaint. */
const CHANGED_EVERY_MS = 250;

export function monitorsHandlers({
  core,
  emit,
  folderAccess,
  onClose,
}: HandlerContext): DomainHandlers<'monitors'> {
  const monitors = () => core.monitors;
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    timer ??= setTimeout(() => {
      timer = undefined;
      emit('monitors:changed', monitors().list());
    }, CHANGED_EVERY_MS);
  };
  // The headless monitor has no bridge; the app and the web host open the monitors at start.
  let unsubscribe: (() => void) | undefined;
  try {
    unsubscribe = monitors().subscribe((event) => {
      // Health updates go out as `health:update` from health.ts, the one place that tells them.
      if (event.type === 'notification') emit('monitors:notify', event.notification);
      changed();
    });
  } catch {
    unsubscribe = undefined;
  }
  onClose(() => {
    unsubscribe?.();
    if (timer) clearTimeout(timer);
  });
  const view = (id: string): MonitorView => {
    const found = monitors()
      .list()
      .find((v) => v.id === id);
    if (!found) throw new Error(`monitor ${id} vanished`);
    return found;
  };
  return {
    'monitors:list': async () => monitors().list(),
    'monitors:add': async ({ webhooks, ...form }) =>
      monitors().add({
        ...monitorFromForm(form, core.profiles),
        ...(webhooks ? { newChannels: webhooks } : {}),
      }),
    'monitors:update': async ({ id, keepWebhooks, webhooks, ...form }) => {
      const kept = monitors().keptWebhooks(id, keepWebhooks);
      return monitors().update(id, {
        ...monitorFromForm(form, core.profiles, kept),
        ...(webhooks ? { newChannels: webhooks } : {}),
      });
    },
    'monitors:remove': async ({ id }) => {
      await monitors().remove(id);
      return { removed: id };
    },
    'monitors:check': async ({ id }) => {
      const monitor = monitors().get(id);
      if (monitor)
        await Promise.all([
          monitor.health.checkNow(),
          monitor.config.synthetic ? monitor.checkSyntheticNow() : undefined,
        ]);
      else await core.health.checkNow();
      return view(id);
    },
    'monitors:testNotify': async ({ id }) => monitors().sendTest(id),
    'monitors:incidents': async ({ monitorId, open }) =>
      monitors().incidents.log.list({
        ...(monitorId !== undefined ? { monitorId } : {}),
        ...(open !== undefined ? { open } : {}),
      }),
    'monitors:acknowledge': async ({ id }) => monitors().incidents.acknowledge(id),
    'monitors:addUpdate': async ({ id, text }) => monitors().incidents.addUpdate(id, text),
    'monitors:resolve': async ({ id }) => monitors().incidents.resolve(id),
    'monitors:incidentName': async () => readIncidentName(core.settings),
    'monitors:setIncidentName': async ({ name }) => saveIncidentName(core.settings, name),
    'monitors:publishStatusPage': async ({ path }) =>
      publishStatusPage(monitors(), path, folderAccess, core.clock.now()),
    'monitors:muted': async () => ({ muted: core.settings.read().notificationsMuted === true }),
    'monitors:mute': async ({ muted }) => {
      core.settings.update((draft) => {
        draft.notificationsMuted = muted;
      });
      changed();
      return { muted };
    },
  };
}
