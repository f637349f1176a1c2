// Public face of the form settings feature: a form's autoresponder, CAPTCHA (spam protection) and
// retention rule, each saved on its own, which the app shows as tabs of the forms feature's Edit
// dialog.
export { AutoresponderSection } from './components/autoresponder-section';
export { CaptchaSection } from './components/captcha-section';
export { RetentionSection } from './components/retention-section';
