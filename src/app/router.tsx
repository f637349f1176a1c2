// The route table of spec §2 under one layout, with the visitor-only and signed-in guards.
import { matchPath, Navigate, Route, Routes } from 'react-router-dom';
import { MinimalLayout } from '../components/layout/minimal-layout';
import { PageLayout } from '../components/layout/page-layout';
import { paths } from '../config/paths';
import { PLAN_SIGNUP_PATH } from '../config/site';
import { ProtectedRoute, VisitorRoute } from '../lib/auth';
import { HomePage } from '../features/home';
import { NewsletterForm } from './lazy-newsletter';
import { lazyPage } from './lazy-page';

// The home page ships in the main bundle (most visits start there); every other page is its own
// chunk, loaded when first visited.
const PricingPage = lazyPage(() => import('../features/pricing/pricing-page'), 'PricingPage');
const LoginPage = lazyPage(() => import('../features/auth'), 'LoginPage');
const RegisterPage = lazyPage(() => import('../features/auth'), 'RegisterPage');
const PlanRedirect = lazyPage(() => import('../features/auth'), 'PlanRedirect');
const ToolsPage = lazyPage(() => import('../features/marketing'), 'ToolsPage');
const CustomPage = lazyPage(() => import('../features/marketing'), 'CustomPage');
const ThanksPage = lazyPage(() => import('../features/marketing'), 'ThanksPage');
const FormErrorPage = lazyPage(() => import('../features/marketing'), 'FormErrorPage');
const TermsPage = lazyPage(() => import('../features/legal'), 'TermsPage');
const PrivacyPage = lazyPage(() => import('../features/legal'), 'PrivacyPage');
// Apart, so the list's chunk does not carry the post page's markdown renderer.
const BlogListPage = lazyPage(
  () => import('../features/blog/components/blog-list-page'),
  'BlogListPage',
);
const BlogPostPage = lazyPage(
  () => import('../features/blog/components/blog-post-page'),
  'BlogPostPage',
);
const DocsPage = lazyPage(() => import('../features/docs'), 'DocsPage');
// Pages reached from a link (an address confirmation, a shared stats page, the newsletter's
// confirmation and unsubscribe links, booking pages): see routes/link-pages.ts.
const linkPages = () => import('./routes/link-pages');
const ConfirmAddressPage = lazyPage(linkPages, 'ConfirmAddressPage');
const SharedStatsPage = lazyPage(linkPages, 'SharedStatsPage');
const NewsletterConfirmPage = lazyPage(linkPages, 'NewsletterConfirmPage');
const NewsletterUnsubscribePage = lazyPage(linkPages, 'NewsletterUnsubscribePage');
const NewsletterConfirmedPage = lazyPage(linkPages, 'NewsletterConfirmedPage');
const NewsletterUnsubscribedPage = lazyPage(linkPages, 'NewsletterUnsubscribedPage');
const NewsletterInvalidLinkPage = lazyPage(linkPages, 'NewsletterInvalidLinkPage');
const ListCheckInboxPage = lazyPage(linkPages, 'ListCheckInboxPage');
const BookingPublicPage = lazyPage(linkPages, 'BookingPublicPage');
const BookingManagePage = lazyPage(linkPages, 'BookingManagePage');
// The signed-in area is one chunk group: visitors never download it.
const dashboardPages = () => import('./routes/dashboard-page');
const DashboardPage = lazyPage(dashboardPages, 'DashboardPage');
// Through the dashboard page's module, which loads each itself: see routes/dashboard-page.tsx.
const DashboardLayout = lazyPage(dashboardPages, 'DashboardLayout');
const AnalyticsPage = lazyPage(dashboardPages, 'AnalyticsPage');
const BookingPage = lazyPage(dashboardPages, 'BookingPage');
const BookingFormPage = lazyPage(dashboardPages, 'BookingFormPage');
const NewsletterPage = lazyPage(dashboardPages, 'NewsletterPage');
const CampaignPage = lazyPage(dashboardPages, 'CampaignPage');
const FormsPage = lazyPage(() => import('./routes/forms-page'), 'FormsPage');
const SettingsPage = lazyPage(() => import('./routes/settings-page'), 'SettingsPage');

export function AppRoutes() {
  return (
    <Routes>
      {/* Seen by the visitors of our customers' sites: no tinyback navigation or footer. */}
      <Route element={<MinimalLayout />}>
        <Route path={paths.thanks} element={<ThanksPage />} />
        <Route path={paths.formError} element={<FormErrorPage />} />
        <Route path={paths.bookingManage} element={<BookingManagePage />} />
        <Route path={paths.bookingPublic(':slug')} element={<BookingPublicPage />} />
        <Route path={paths.newsletterCheckInbox} element={<ListCheckInboxPage />} />
      </Route>
      <Route element={<PageLayout newsletter={<NewsletterForm id="footer-newsletter" />} />}>
        <Route index element={<HomePage />} />
        <Route path={paths.pricing} element={<PricingPage />} />
        <Route path={paths.tools} element={<ToolsPage />} />
        <Route
          path={paths.blog}
          element={
            <BlogListPage newsletter={<NewsletterForm id="blog-newsletter" tone="light" />} />
          }
        />
        <Route path={paths.blogPost(':id')} element={<BlogPostPage />} />
        <Route path={paths.terms} element={<TermsPage />} />
        <Route path={paths.privacy} element={<PrivacyPage />} />
        <Route path={paths.custom} element={<CustomPage />} />
        <Route path={paths.docs} element={<DocsPage />} />
        <Route path={paths.confirmAddress} element={<ConfirmAddressPage />} />
        <Route path="/share/analytics/:token" element={<SharedStatsPage />} />
        <Route path={paths.newsletterConfirm} element={<NewsletterConfirmPage />} />
        <Route path={paths.newsletterUnsubscribe} element={<NewsletterUnsubscribePage />} />
        <Route path={paths.newsletterConfirmed} element={<NewsletterConfirmedPage />} />
        <Route path={paths.newsletterUnsubscribed} element={<NewsletterUnsubscribedPage />} />
        <Route path={paths.newsletterInvalidLink} element={<NewsletterInvalidLinkPage />} />
        <Route path={PLAN_SIGNUP_PATH} element={<PlanRedirect />} />
        <Route element={<VisitorRoute />}>
          <Route path={paths.login} element={<LoginPage />} />
          <Route path={paths.register} element={<RegisterPage />} />
        </Route>
        <Route element={<ProtectedRoute />}>
          <Route element={<DashboardLayout />}>
            <Route path={paths.dashboard} element={<DashboardPage />} />
            <Route path={paths.dashboardForms} element={<FormsPage />} />
            <Route path={paths.dashboardBooking} element={<BookingPage />} />
            <Route path={paths.dashboardBookingNew} element={<BookingFormPage />} />
            <Route path={paths.dashboardBookingItem(':id')} element={<BookingFormPage />} />
            <Route path={paths.dashboardNewsletter} element={<NewsletterPage />} />
            <Route path={paths.dashboardNewsletterCampaign(':id')} element={<CampaignPage />} />
            <Route path={paths.dashboardAnalytics} element={<AnalyticsPage />} />
            <Route path={paths.settings} element={<SettingsPage />} />
          </Route>
        </Route>
        <Route path="*" element={<Navigate to={paths.home} replace />} />
      </Route>
    </Routes>
  );
}

/**
 * The public pages a visit may start on, for `preloadPage`. (The signed-in pages wait for the
 * session anyway, with their own spinner.)
 */
const FIRST_PAGES: [string, { preload: () => Promise<void> }][] = [
  [paths.pricing, PricingPage],
  [paths.tools, ToolsPage],
  [paths.blog, BlogListPage],
  [paths.blogPost(':id'), BlogPostPage],
  [paths.terms, TermsPage],
  [paths.privacy, PrivacyPage],
  [paths.custom, CustomPage],
  [paths.docs, DocsPage],
  [paths.thanks, ThanksPage],
  [paths.formError, FormErrorPage],
  [paths.bookingManage, BookingManagePage],
  [paths.bookingPublic(':slug'), BookingPublicPage],
  [paths.login, LoginPage],
  [paths.register, RegisterPage],
];

/** Loads the chunk of the page at `pathname` (if it has one), so the first render shows it. */
export async function preloadPage(pathname: string): Promise<void> {
  const page = FIRST_PAGES.find(([pattern]) => matchPath(pattern, pathname))?.[1];
  await page?.preload();
}
