// Public face of the forms feature (skeleton; filled in by the forms work).
export { FormsPanel } from './components/forms-panel';
export { RecentForms } from './components/recent-forms';
export { useForms } from './api/get-forms';
export { formsLiveBindings } from './live-bindings';
