// Carries the e-mail typed into the home page's hero to the register form, once.
const KEY = 'tinyback.signup-email';

export function storeSignupEmail(email: string): boolean {
  const value = email.trim();
  if (!value) return false;
  try {
    sessionStorage.setItem(KEY, value);
  } catch {
    // Storage can be disabled (private mode); the register form then simply starts empty.
  }
  return true;
}

/** Reads the stored e-mail without removing it (safe to call during render). */
export function peekSignupEmail(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function clearSignupEmail(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored when storage is unavailable.
  }
}
