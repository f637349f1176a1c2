import { describe, expect, it } from 'vitest';
import { env } from '../../config/env';
import { siteSnippet } from './site-snippet';

describe('siteSnippet', () => {
  it("is one script tag: this deployment's tb.js, the site's id and the collect endpoint", () => {
    expect(siteSnippet('0b4f-site', 'https://stats.example.com/')).toBe(
      `<script defer src="https://stats.example.com/tb.js" data-site="0b4f-site" data-api="${env.supabaseUrl.replace(/\/+$/, '')}/functions/v1/analytics/collect"></script>`,
    );
  });
});
