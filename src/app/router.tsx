// The route table of spec §2 under one layout, with the visitor-only and signed-in guards.
import { Navigate, Route, Routes } from 'react-router-dom';
import { PageLayout } from '../components/layout/page-layout';
import { paths } from '../config/paths';
import { PLAN_SIGNUP_PATH } from '../config/site';
import { ProtectedRoute, VisitorRoute } from '../lib/auth';
import { HomePage } from '../features/home';
import { PricingPage } from '../features/pricing/pricing-page';
import { LoginPage, PlanRedirect, RegisterPage } from '../features/auth';
import { CustomPage, ThanksPage, ToolsPage } from '../features/marketing';
import { PrivacyPage, TermsPage } from '../features/legal';
import { NewsletterForm } from '../features/newsletter';
import { BlogListPage, BlogPostPage } from '../features/blog';
import { DocsPage } from '../features/docs';
import { DashboardPlaceholder } from './routes/dashboard-placeholder';

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PageLayout newsletter={<NewsletterForm id="footer-newsletter" />} />}>
        <Route index element={<HomePage />} />
        <Route path={paths.pricing} element={<PricingPage />} />
        <Route path={paths.tools} element={<ToolsPage />} />
        <Route path={paths.blog} element={<BlogListPage newsletter={<NewsletterForm id="blog-newsletter" tone="light" />} />} />
        <Route path={paths.blogPost(':id')} element={<BlogPostPage />} />
        <Route path={paths.terms} element={<TermsPage />} />
        <Route path={paths.privacy} element={<PrivacyPage />} />
        <Route path={paths.custom} element={<CustomPage />} />
        <Route path={paths.docs} element={<DocsPage />} />
        <Route path={paths.thanks} element={<ThanksPage />} />
        <Route path={PLAN_SIGNUP_PATH} element={<PlanRedirect />} />
        <Route element={<VisitorRoute />}>
          <Route path={paths.login} element={<LoginPage />} />
          <Route path={paths.register} element={<RegisterPage />} />
        </Route>
        <Route element={<ProtectedRoute />}>
          <Route path={paths.dashboard} element={<DashboardPlaceholder title="Dashboard" />} />
          <Route path={paths.dashboardForms} element={<DashboardPlaceholder title="Your Forms" />} />
          <Route path={paths.dashboardBooking} element={<DashboardPlaceholder title="Your Booking Forms" />} />
        </Route>
        <Route path="*" element={<Navigate to={paths.home} replace />} />
      </Route>
    </Routes>
  );
}
