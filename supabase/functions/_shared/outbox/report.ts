// What one run of the outbox did: jobs claimed, sent, left to retry and failed for good. The
// `_deliver` route answers with it (the e-mail run's and the webhook run's counts added up).
export interface DeliveryReport {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
}

/** Adds the webhook run's counts to the e-mail run's (the `_deliver` answer sums both). */
export function addReports(a: DeliveryReport, b: DeliveryReport): DeliveryReport {
  return {
    claimed: a.claimed + b.claimed,
    sent: a.sent + b.sent,
    retrying: a.retrying + b.retrying,
    failed: a.failed + b.failed,
  };
}
