// Wording that depends on numbers or answers: message counts on cards and in the delete question,
// and what the cards and toasts say about a target address waiting for its confirmation.
import { LIMITS } from '../../../supabase/functions/_shared/limits';
import type { SendHeldOutcome } from './api/held-notifications';
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

/** The card's note about messages received before the target address was confirmed. */
export function heldMessagesText(n: number, address: string): string {
  return n === 1
    ? `1 message arrived before ${address} was confirmed and was not e-mailed.`
    : `${n} messages arrived before ${address} was confirmed and were not e-mailed.`;
}

/** The note's button. */
export function sendHeldLabel(n: number): string {
  return n === 1
    ? 'Send the message received meanwhile'
    : `Send the ${n} messages received meanwhile`;
}

const CAPS_TEXT = `Your account may send ${LIMITS.notificationsPerHour} notification e-mails an hour and ${LIMITS.notificationsPerDay.toLocaleString('en')} a day`;

/** The toast after "Send the messages received meanwhile", for each answer of the database. */
export function sendHeldFeedback(outcome: SendHeldOutcome): Feedback {
  switch (outcome.status) {
    case 'queued': {
      const sent =
        outcome.queued === 1
          ? '1 message is on its way'
          : `${outcome.queued} messages are on their way`;
      return {
        type: 'success',
        title: `${sent} to ${outcome.email}`,
        description:
          outcome.remaining > 0
            ? `${outcome.remaining} more ${outcome.remaining === 1 ? 'message waits' : 'messages wait'}: ${CAPS_TEXT}. Send them again later.`
            : undefined,
      };
    }
    case 'limited':
      return {
        type: 'error',
        title: 'Not sent yet',
        description: `${CAPS_TEXT}, and this one is used up. Try again later.`,
      };
    case 'none':
      return { type: 'info', title: 'Nothing left to send' };
    case 'unverified':
      return {
        type: 'error',
        title: 'The address is not confirmed',
        description: 'Messages are only e-mailed to a confirmed address.',
      };
    case 'off':
      return {
        type: 'info',
        title: 'E-mail notifications are off for this form',
        description: 'Turn them on in Edit to send these messages.',
      };
    case 'not_found':
      return { type: 'error', title: 'This form no longer exists.' };
  }
}
