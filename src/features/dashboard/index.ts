export { DashboardHome } from './dashboard-home';
