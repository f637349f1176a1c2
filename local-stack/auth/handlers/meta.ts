// GET /settings, GET /health and the JWKS: what auth-js and dashboards read about the instance.
import { sendAuthJson } from '../errors.ts';
import type { AuthHandler } from './types.ts';

export const settings: AuthHandler = async (deps, { res }) => {
  const auth = deps.ctx.settings.project.auth;
  sendAuthJson(res, 200, {
    external: {
      anonymous_users: false,
      apple: false,
      azure: false,
      bitbucket: false,
      discord: false,
      email: true,
      facebook: false,
      figma: false,
      github: false,
      gitlab: false,
      google: false,
      keycloak: false,
      kakao: false,
      linkedin_oidc: false,
      notion: false,
      phone: false,
      slack_oidc: false,
      spotify: false,
      twitch: false,
      twitter: false,
      workos: false,
      zoom: false,
    },
    disable_signup: !auth.enableSignup,
    mailer_autoconfirm: !auth.enableConfirmations,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  });
};

export const health: AuthHandler = async (_deps, { res }) => {
  sendAuthJson(res, 200, {
    version: 'local-stack',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  });
};

/** GoTrue publishes only asymmetric keys; tokens here are HS256, so the set is empty. */
export const jwks: AuthHandler = async (_deps, { res }) => {
  sendAuthJson(res, 200, { keys: [] }, { 'Cache-Control': 'public, max-age=600' });
};
