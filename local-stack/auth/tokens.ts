// Access tokens with GoTrue's claims and the session response (`AccessTokenResponse`) that
// auth-js recognises as a session.
import { signJwt } from '../jwt.ts';
import type { AmrEntry } from './sessions.ts';
import type { JsonObject } from './request.ts';
import type { UserRow } from './users.ts';

export interface TokenSettings {
  issuer: string; // {apiUrl}/auth/v1
  jwtSecret: string;
  jwtExpiry: number; // seconds
}

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: JsonObject;
}

async function issueAccessToken(
  settings: TokenSettings,
  user: UserRow,
  session: { id: string; aal: string; amr: AmrEntry[] },
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + settings.jwtExpiry;
  const token = await signJwt(
    {
      iss: settings.issuer,
      sub: user.id,
      aud: user.aud || 'authenticated',
      exp,
      iat,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role || 'authenticated',
      aal: session.aal,
      amr: session.amr,
      session_id: session.id,
      is_anonymous: user.is_anonymous,
    },
    settings.jwtSecret,
  );
  return { token, expiresAt: exp };
}

export async function sessionResponse(
  settings: TokenSettings,
  user: UserRow,
  userJson: JsonObject,
  session: { id: string; aal: string; amr: AmrEntry[] },
  refreshToken: string,
): Promise<SessionResponse> {
  const { token, expiresAt } = await issueAccessToken(settings, user, session);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: settings.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson,
  };
}
