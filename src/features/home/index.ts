// Public surface of the home feature (the snippet builder is reused for dashboard embed codes).
export { HomePage } from './home-page';
export { buildFormSnippet, formEndpoint, EXAMPLE_FORM_ID } from './snippet';
