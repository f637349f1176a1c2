// Upload limits: sizes as config.toml and buckets write them, and the MIME types a bucket takes.

/** Supabase's Free plan maximum, and the CLI's `[storage] file_size_limit` default. */
export const DEFAULT_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/**
 * A size in bytes: a number, or a number and a unit (`"20MB"` as Storage reads it, `"50MiB"` as
 * the CLI's config.toml writes it). Throws on anything else.
 */
export function parseSizeLimit(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const m = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value) : null;
  const unit = m ? UNITS[(m[2] || 'b').toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`not a size: ${JSON.stringify(value)}`);
  return Math.floor(Number(m[1]) * unit);
}

/** The cap of one upload: the global limit, lowered by the bucket's own when it has one. */
export function uploadSizeLimit(globalLimit: number, bucketLimit: number | null): number {
  return bucketLimit === null ? globalLimit : Math.min(globalLimit, bucketLimit);
}

/**
 * Whether a bucket with `allowed` types (null or empty: any) takes `mimeType`; `image/*` matches
 * every `image/…`. Parameters (`;charset=…`) and case do not count.
 */
export function isMimeTypeAllowed(mimeType: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const essence = mimeType.split(';')[0].trim().toLowerCase();
  const [type] = essence.split('/');
  return allowed.some((pattern) => {
    const wanted = pattern.split(';')[0].trim().toLowerCase();
    return wanted === essence || wanted === '*/*' || wanted === `${type}/*`;
  });
}
