// Stable integer ids for postgres_changes bindings. Supabase uses Erlang's phash2 of the binding
// params; clients only need the id to be a stable, non-zero integer that is equal for equal params.

/** Key order must not matter, so objects are serialised with sorted keys. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** FNV-1a over the canonical form, folded into phash2's range 1..2^27-1 (0 would read as "no id"). */
export function bindingId(params: Record<string, unknown>): number {
  const text = canonical(params);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash % (2 ** 27 - 1)) + 1;
}
