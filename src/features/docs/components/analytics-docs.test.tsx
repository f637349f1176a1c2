// The analytics docs section: the snippet owners paste (this deployment's collect URL, the
// tracker's file), custom events, the opt-in attributes, single-page apps, serving the file, and
// the data-processing statement at its own anchor.
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../components/testing/render';
import {
  TRACKER_CACHE_CONTROL,
  TRACKER_OPTIONS,
  TRACKER_QUEUE_SNIPPET,
  collectUrl,
} from '../../../config/analytics-tracker';
import { env } from '../../../config/env';
import { site } from '../../../config/site';
import { ANALYTICS_DATA_ID, Analytics } from './analytics-docs';

vi.setConfig({ testTimeout: 20_000 });

describe('the analytics docs section', () => {
  it('gives the one-line snippet for this deployment', () => {
    renderWithProviders(<Analytics />);
    const section = screen.getByRole('region', { name: 'Analytics' });
    expect(section).not.toHaveTextContent('Coming soon');
    expect(within(section).getByRole('button', { name: 'Copy: Analytics snippet' })).toBeVisible();
    expect(section).toHaveTextContent(
      `<script defer src="${site.url}/tb.js" data-site="YOUR-SITE-ID" data-api="${collectUrl(env.supabaseUrl)}"></script>`,
    );
    expect(collectUrl(env.supabaseUrl)).toMatch(/\/functions\/v1\/analytics\/collect$/);
  });

  it('documents custom events, the queue for early calls and the opt-in attributes', () => {
    renderWithProviders(<Analytics />);
    const section = screen.getByRole('region', { name: 'Analytics' });
    expect(section).toHaveTextContent("tinyback('signup')");
    expect(section).toHaveTextContent(TRACKER_QUEUE_SNIPPET);
    expect(section).toHaveTextContent(/a name of 1 to 50 characters/);
    expect(section).toHaveTextContent(/up to 5 props/);
    const table = within(section).getByRole('table', { name: 'Script tag attributes' });
    for (const attribute of ['data-site', 'data-api', ...Object.values(TRACKER_OPTIONS)]) {
      expect(within(table).getByText(attribute)).toBeInTheDocument();
    }
    expect(section).toHaveTextContent(/pushState or replaceState to a new path/);
    expect(section).toHaveTextContent(`Cache-Control: ${TRACKER_CACHE_CONTROL}`);
  });

  it('has a data-processing statement an owner can link to', () => {
    renderWithProviders(<Analytics />);
    const heading = screen.getByRole('heading', {
      level: 3,
      name: 'What is collected, and what is not',
    });
    expect(heading).toHaveAttribute('id', ANALYTICS_DATA_ID);
    const section = screen.getByRole('region', { name: 'Analytics' });
    for (const fact of [
      /UTM tags/,
      /host of the referring website/,
      /screen class/,
      /browser, operating system and device type/,
      /country, derived from the time zone/,
      /salt is replaced every day and the old one deleted after a day/,
      /no cookies/,
      /no IP address/,
      /no tracking across websites or across days/,
    ]) {
      expect(section).toHaveTextContent(fact);
    }
  });
});
