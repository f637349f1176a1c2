// Wording that depends on numbers: message counts on cards and in the delete question.

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
