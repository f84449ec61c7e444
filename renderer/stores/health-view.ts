// Which monitor the Health screen shows: one picked on the Overview (drill-down), else the one
// watching the active profile.
import { create } from 'zustand';
import { useNavigation } from './navigation';

interface HealthView {
  monitorId: string | undefined;
}

export const useHealthView = create<HealthView>(() => ({ monitorId: undefined }));

export function showHealthOf(monitorId: string | undefined): void {
  useHealthView.setState({ monitorId });
  useNavigation.getState().go('Health');
}
