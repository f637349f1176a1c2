// Which dependencies run install scripts, and whether package.json's `allowScripts` covers them
// as npm 11 matches it (@npmcli/arborist's script-allowed.js): npm runs an unreviewed install
// script with a warning on every `npm install` / `npm ci`, and skips a denied one.
//
// Keys are a bare name (or `name@*`), which covers every version, or exact versions joined by
// `||` (`name@1.2.3`), which npm checks against the version in the lockfile's `resolved` URL. This
// project's lockfile has no `resolved` URLs, so npm refuses such pins: only bare names work here.

export interface LockPackage {
  version?: string;
  resolved?: string;
  hasInstallScript?: boolean;
  link?: boolean;
}

export interface Lockfile {
  packages: Record<string, LockPackage>;
}

export interface ScriptPackage {
  name: string;
  version: string | null;
  /** The version as npm trusts it: taken from the registry URL, null without one. */
  trustedVersion: string | null;
}

/** `node_modules/@scope/name` (possibly nested) → `@scope/name`. */
export function nameFromLockPath(lockPath: string): string {
  const at = lockPath.lastIndexOf('node_modules/');
  return lockPath.slice(at + 'node_modules/'.length);
}

/** The version in a registry tarball URL (`…/<name>/-/<basename>-<version>.tgz`), as npm reads it. */
export function versionFromResolved(name: string, resolved: string | undefined): string | null {
  if (!resolved || !/^https?:\/\/[^/]+\/.+\/-\/[^/]+-\d/.test(resolved)) return null;
  const basename = name.split('/').pop()!;
  const file = resolved.split('/').pop()!.replace(/\?.*$/, '');
  const prefix = `${basename}-`;
  if (!file.startsWith(prefix) || !file.endsWith('.tgz')) return null;
  return file.slice(prefix.length, -'.tgz'.length);
}

/** Every package in the lockfile that has an install script (every platform's, not only this one's). */
export function packagesWithInstallScripts(lock: Lockfile): ScriptPackage[] {
  return Object.entries(lock.packages)
    .filter(([lockPath, pkg]) => lockPath !== '' && pkg.hasInstallScript && !pkg.link)
    .map(([lockPath, pkg]) => {
      const name = nameFromLockPath(lockPath);
      return {
        name,
        version: pkg.version ?? null,
        trustedVersion: versionFromResolved(name, pkg.resolved),
      };
    });
}

/** `name`, `name@*`, `name@1.2.3`, `name@1.2.3 || 1.2.4` → its name and version spec. */
function parseKey(key: string): { name: string; spec: string } {
  const at = key.indexOf('@', key.startsWith('@') ? 1 : 0);
  return at === -1
    ? { name: key, spec: '' }
    : { name: key.slice(0, at), spec: key.slice(at + 1).trim() };
}

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Does one allowScripts key name this package (with its fail-closed rule for denials)? */
function keyMatches(key: string, pkg: ScriptPackage, deny: boolean): boolean {
  const { name, spec } = parseKey(key);
  if (name !== pkg.name) return false;
  if (spec === '' || spec === '*') return true;
  const versions = spec.split('||').map((v) => v.trim());
  // Ranges (^, ~, >=) and tags are ignored by npm.
  if (!versions.every((v) => EXACT_VERSION.test(v))) return false;
  // A version npm cannot verify: a denial still blocks, an approval is refused.
  if (pkg.trustedVersion === null) return deny;
  return versions.includes(pkg.trustedVersion);
}

/**
 * npm's verdict for one package: true (approved), false (denied; a denial wins) or null (not
 * covered: npm runs the script and warns about it on every install).
 */
export function scriptVerdict(
  policy: Record<string, boolean> | undefined,
  pkg: ScriptPackage,
): boolean | null {
  let allowed = false;
  for (const [key, value] of Object.entries(policy ?? {})) {
    if (!keyMatches(key, pkg, value === false)) continue;
    if (value === false) return false;
    if (value === true) allowed = true;
  }
  return allowed ? true : null;
}

/** The lockfile's install-script packages that allowScripts neither approves nor denies. */
export function uncoveredInstallScripts(
  lock: Lockfile,
  policy: Record<string, boolean> | undefined,
): string[] {
  return packagesWithInstallScripts(lock)
    .filter((pkg) => scriptVerdict(policy, pkg) === null)
    .map((pkg) => `${pkg.name}@${pkg.version ?? '?'}`);
}
