// /settings: the settings feature's page, with the plans feature's "Plan and usage" passed in.
import { PlanSection } from '../../features/plans';
import { SettingsPage as SettingsFeaturePage } from '../../features/settings';

export function SettingsPage() {
  return <SettingsFeaturePage plan={<PlanSection />} />;
}
