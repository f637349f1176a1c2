export { PlanSection } from './components/plan-section';
export { UsageBanner } from './components/usage-banner';
export { planLiveBindings } from './live-bindings';
