import { describe, expect, it } from 'vitest';
import { isRecoveryLink } from './auth';

describe('isRecoveryLink', () => {
  it("recognises a password-reset link's fragment", () => {
    expect(
      isRecoveryLink(
        '#access_token=abc&expires_in=3600&refresh_token=r&token_type=bearer&type=recovery',
      ),
    ).toBe(true);
  });

  it('ignores other fragments', () => {
    expect(isRecoveryLink('')).toBe(false);
    expect(isRecoveryLink('#self-hosting')).toBe(false);
    expect(isRecoveryLink('#access_token=abc&type=signup')).toBe(false);
    expect(isRecoveryLink('#error=access_denied&error_code=otp_expired&type=recovery')).toBe(false);
  });
});
