// Public face of the forms feature: the Forms tab, the dashboard's recent forms, the forms list
// (for other features, through the app layer) and its realtime bindings.
export { FormsPanel, type FormsPanelProps } from './components/forms-panel';
export { RecentForms } from './components/recent-forms';
export { useForms } from './api/get-forms';
export { formsLiveBindings } from './live-bindings';
