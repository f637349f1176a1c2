// The text shown under an auth form when a request fails: the server's own message (spec §8
// shows it as is), or a fallback when the failure carries none.
export function serverMessage(caught: unknown, fallback: string): string {
  return caught instanceof Error && caught.message ? caught.message : fallback;
}
