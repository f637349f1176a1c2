// The docs page's sections in reading order: each is an h2 whose id the table of contents links to.

export const DOC_SECTIONS = [
  { id: 'getting-started', title: 'Getting started' },
  { id: 'endpoint', title: 'The endpoint URL' },
  { id: 'html-form', title: 'HTML form' },
  { id: 'ajax', title: 'AJAX and JSON' },
  { id: 'special-fields', title: 'Special fields' },
  { id: 'allowed-origin', title: 'Allowed origin and CORS' },
  { id: 'spam', title: 'Spam defence' },
  { id: 'captcha', title: 'CAPTCHA' },
  { id: 'uploads', title: 'File uploads' },
  { id: 'limits', title: 'Limits and error codes' },
  { id: 'notifications', title: 'E-mail notifications' },
  { id: 'api-keys', title: 'API key authentication' },
  { id: 'analytics', title: 'Analytics' },
  { id: 'newsletter', title: 'Newsletter' },
  { id: 'booking', title: 'Booking' },
  { id: 'webhooks', title: 'Webhooks and automation' },
  { id: 'autoresponder', title: 'Autoresponder' },
  { id: 'retention', title: 'Retention' },
  { id: 'api-reference', title: 'API reference' },
  { id: 'troubleshooting', title: 'Troubleshooting' },
  { id: 'security', title: 'Security' },
  { id: 'self-hosting', title: 'Self-hosting' },
  { id: 'faq', title: 'FAQ' },
  { id: 'contact', title: 'Contact' },
] as const;

export type DocSectionId = (typeof DOC_SECTIONS)[number]['id'];

export function docSection(id: DocSectionId) {
  return DOC_SECTIONS.find((s) => s.id === id)!;
}
