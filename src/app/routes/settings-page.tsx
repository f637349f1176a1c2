// /settings: the settings feature's page, with the plans feature's "Plan and usage" and the
// uploads feature's file storage passed in.
import { PlanSection } from '../../features/plans';
import { SettingsPage as SettingsFeaturePage } from '../../features/settings';
import { StorageUse } from '../../features/uploads';

export function SettingsPage() {
  return (
    <SettingsFeaturePage
      plan={
        <>
          <PlanSection />
          <StorageUse />
        </>
      }
    />
  );
}
