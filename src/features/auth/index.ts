// Public surface of the auth feature.
export { LoginPage } from './login-page';
export { RegisterPage } from './register-page';
export { PlanRedirect } from './plan-redirect';
