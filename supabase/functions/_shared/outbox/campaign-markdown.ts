// A campaign's Markdown as the HTML part of its mail, with micromark (CommonMark + GFM tables,
// strikethrough, autolinks). Raw HTML in the Markdown is escaped, never passed through, and
// dangerous link protocols (javascript:, data:…) are dropped: micromark's defaults, kept on
// purpose. Links stay as the owner wrote them: no rewriting, no tracking pixel.
// Deno-only (npm: imports): worker.ts passes it to the campaign run; campaigns.ts stays pure.
import { micromark } from 'npm:micromark@4.0.3';
import { gfm, gfmHtml } from 'npm:micromark-extension-gfm@3.0.0';

export function renderCampaignMarkdown(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}
