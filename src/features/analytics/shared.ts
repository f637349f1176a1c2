// The public page of a site's stats at its share link (/share/analytics/<token>): its own chunk,
// apart from the signed-in dashboard.
export { SharedStatsPage } from './components/shared-stats-page';
