// Text made safe for the HTML the site writes out for owners to paste (embed code): one escape
// for attribute values and text nodes, and one for comments.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML attribute value (quoted either way) or a text node. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * Makes text safe inside an HTML comment, which shows it raw (entities are not decoded there):
 * without `<` and `>` it can neither close the comment early (`-->`, `--!>`) nor open another.
 */
export function escapeComment(value: string): string {
  return value.replace(/[<>]/g, (c) => HTML_ESCAPES[c]);
}
