// Public face of the webhooks feature: a form's webhooks (list, switches, secret, test event,
// delivery log and the form to add one), which the app shows as the Edit dialog's Webhooks tab.
export { WebhooksSection } from './components/webhooks-section';
