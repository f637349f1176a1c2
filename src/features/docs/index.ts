// The docs feature's public surface: the documentation hub page.
export { DocsPage } from './components/docs-page';
