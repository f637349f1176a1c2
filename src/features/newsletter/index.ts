// Public surface of the newsletter feature.
export { NewsletterForm } from './components/newsletter-form';
export { subscribeToNewsletter } from './api/subscribe';
