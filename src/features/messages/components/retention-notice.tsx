// Tells the owner, above the inbox, when messages are deleted by a retention rule: for the form
// shown, or for each form with a rule when all forms are shown. Nothing while loading or without
// a rule; a quiet line when the rules could not be read.
import { Alert, Text } from '@chakra-ui/react';
import { useRetentionRules, type RetentionRule } from '../api/get-retention-rules';

export interface RetentionNoticeProps {
  /** The form shown, or null for all forms. */
  formId: string | null;
  formName: (id: string) => string | undefined;
}

function ruleText(rule: RetentionRule): string {
  return rule.mode === 'forward_only'
    ? 'forward only: messages are deleted once delivered'
    : `messages are deleted after ${rule.days} ${rule.days === 1 ? 'day' : 'days'}`;
}

export function RetentionNotice({ formId, formName }: RetentionNoticeProps) {
  const rules = useRetentionRules();
  if (rules.isError)
    return (
      <Text textStyle="sm" color="fg.muted">
        Could not check the forms’ retention rules.
      </Text>
    );
  if (!rules.data) return null;
  const shown = formId
    ? rules.data.filter((rule) => rule.form_id === formId)
    : rules.data.filter((rule) => formName(rule.form_id) !== undefined);
  if (shown.length === 0) return null;

  return (
    <Alert.Root status="info" size="sm" role="note" aria-label="Retention">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Retention</Alert.Title>
        <Alert.Description>
          {formId
            ? `This form has a retention rule: ${ruleText(shown[0]!)}.`
            : shown.map((rule) => `${formName(rule.form_id)}: ${ruleText(rule)}`).join('. ') + '.'}
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
