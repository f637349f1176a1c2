// Public surface of the home feature: its page.
export { HomePage } from './home-page';
