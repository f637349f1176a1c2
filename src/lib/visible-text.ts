// Bidirectional controls shown, not obeyed. A name, form name or subject may carry the characters
// that reorder text (U+202E RIGHT-TO-LEFT OVERRIDE shows 'Invoice\u202Efdp.exe' as
// 'Invoiceexe.pdf', and reorders what follows it on the line): for display each one becomes a
// visible token such as `[U+202E]`. The stored text stays as it was sent; only what is shown
// changes. The functions' e-mails do the same (supabase/functions/_shared/visible-text.ts).

/** LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI; LRM, RLM; ALM. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** The text with each bidirectional control replaced by `[U+XXXX]`. */
export function visibleText(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (control) => `[U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
