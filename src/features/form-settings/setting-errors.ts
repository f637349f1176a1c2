// A failed save of a form's autoresponder or retention rule, in words for the owner.
import { describeSettingSaveError } from '../../lib/setting-errors';
import { MAX_MERGE_FIELDS } from './autoresponse-template';

/** The database's check constraints on these settings, by name, and what each refusal means. */
const CONSTRAINTS: Record<string, string> = {
  form_autoresponders_merge_fields: `Not saved: the subject and the reply may use at most ${MAX_MERGE_FIELDS} merge fields each.`,
};

/** `action` says what was tried ("save the autoresponder"). */
export function describeSettingError(error: unknown, action: string): string {
  return describeSettingSaveError(error, action, CONSTRAINTS);
}
