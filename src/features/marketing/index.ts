// Public surface of the marketing feature.
export { ToolsPage } from './tools-page';
export { CustomPage } from './custom-page';
export { ThanksPage } from './thanks-page';
export { FormErrorPage } from './form-error-page';
