// Bidirectional controls shown, not obeyed, in what the functions' e-mails display: a subject,
// form name, field name or sender's name may carry the characters that reorder text (U+202E
// RIGHT-TO-LEFT OVERRIDE shows 'Invoice\u202Efdp.exe' as 'Invoiceexe.pdf', and reorders what
// follows it), so each one becomes a visible token such as `[U+202E]`. Stored data is never
// changed. Pure code; the site has the same helper (src/lib/visible-text.ts).

/** LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI; LRM, RLM; ALM. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** The text with each bidirectional control replaced by `[U+XXXX]`. */
export function visibleText(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (control) => `[U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
