// Wording that depends on numbers or answers: message counts on cards and in the delete question,
// and what the cards and toasts say about a target address waiting for its confirmation.
import type { ResendOutcome } from './api/resend-target-confirmation';

/** "1 message", "12 messages". */
export function messageCount(n: number): string {
  return `${n} ${n === 1 ? 'message' : 'messages'}`;
}

/**
 * The delete dialog's question. Counts every message that goes with the form, spam included;
 * when the counts are unknown (still loading, or failed) it says "all its messages".
 */
export function deleteQuestion(
  name: string,
  counts: { total: number; spam: number } | undefined,
): string {
  if (!counts) return `Delete "${name}" and all its messages?`;
  const n = counts.total + counts.spam;
  if (n === 0) return `Delete "${name}"?`;
  return `Delete "${name}" and its ${messageCount(n)}?`;
}

/** The card's note while a form's target address waits for its confirmation. */
export function pendingConfirmationText(address: string): string {
  return `Confirmation pending: check ${address}`;
}

/** What a new or changed form's toast adds while its address is not confirmed yet. */
export function confirmationNeededText(address: string): string {
  return (
    `We are e-mailing a confirmation link to ${address}. ` +
    'Until it is opened, messages are stored here but not e-mailed.'
  );
}

export interface Feedback {
  type: 'success' | 'error' | 'info';
  title: string;
  description?: string;
}

/** The toast after "Resend confirmation", for each answer of the database. */
export function resendFeedback(
  outcome: ResendOutcome,
  address: string,
  linkValidHours: number,
): Feedback {
  switch (outcome.status) {
    case 'requested':
      return {
        type: 'success',
        title: 'Confirmation e-mail on its way',
        description: `A new link goes to ${outcome.email} within a minute. It works for ${linkValidHours} hours.`,
      };
    case 'already_requested':
      return {
        type: 'info',
        title: 'Confirmation e-mail already on its way',
        description: `It reaches ${outcome.email} within a minute; check that inbox and its spam folder.`,
      };
    case 'verified':
      return {
        type: 'success',
        title: 'Address already confirmed',
        description: `Messages are e-mailed to ${address}.`,
      };
    case 'limited':
      return {
        type: 'error',
        title: 'Too many confirmation e-mails today',
        description:
          'Try again tomorrow, or send this form to your account’s own address, which needs no confirmation.',
      };
    case 'not_found':
      return { type: 'error', title: 'This form no longer exists.' };
  }
}
