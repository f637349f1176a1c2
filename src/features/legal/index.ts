// Public surface of the legal pages feature.
export { TermsPage } from './terms-page';
export { PrivacyPage } from './privacy-page';
