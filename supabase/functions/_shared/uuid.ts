// The one check of an id's text form: a UUID of any version, in either case. Ids in paths and
// bodies that fail it name nothing, so the caller answers "not found" without asking storage.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
