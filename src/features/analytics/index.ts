// Public face of the analytics feature: the dashboard page of the owner's sites and their stats
// (/dashboard/analytics). The tracker site owners embed lives in tracker/ and is built apart.
export { AnalyticsPage } from './components/analytics-page';
