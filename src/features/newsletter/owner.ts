// The owner's newsletter pages in the dashboard, apart from index.ts: the footer's signup form
// loads that module on public pages, and should not bring these with it.
export { NewsletterPage } from './newsletter-page';
export { CampaignPage } from './campaign-page';
