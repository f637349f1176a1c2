// The typed confirmation that guards account deletion: the account's e-mail (any case) or the
// word DELETE.
export const DELETE_WORD = 'DELETE';

export function confirmsDeletion(typed: string, email: string | undefined): boolean {
  const value = typed.trim();
  if (!value) return false;
  if (value === DELETE_WORD) return true;
  return Boolean(email) && value.toLowerCase() === email!.trim().toLowerCase();
}
