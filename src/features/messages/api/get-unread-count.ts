// Unread, non-spam messages of the signed-in owner (skeleton).
export function useUnreadCount(): number | undefined {
  return undefined;
}
