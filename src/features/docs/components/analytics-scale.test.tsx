// The analytics docs' "How it scales": the account's cap as the function applies it, and the
// bench's figures for the default view and ingestion; filtered views point to the measurements.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../components/testing/render';
import { ANALYTICS } from '../../../../supabase/functions/_shared/limits';
import { ANALYTICS_SCALE } from '../analytics-scale-facts';
import { Analytics } from './analytics-docs';

describe('the analytics docs: how it scales', () => {
  it("states the account's daily cap, the default view's and ingestion's figures", () => {
    renderWithProviders(<Analytics />);
    const section = screen.getByRole('region', { name: 'Analytics' });
    expect(screen.getByRole('heading', { name: 'How it scales' })).toBeInTheDocument();
    expect(section).toHaveTextContent(
      `an account stores at most ${ANALYTICS.accountEventsPerDay.toLocaleString('en-US')} events a UTC day`,
    );
    const [db50, db95] = ANALYTICS_SCALE.defaultViewDb;
    const [api50, api95] = ANALYTICS_SCALE.defaultViewApi;
    expect(section).toHaveTextContent(
      `default 30-day view in ${db50} ms at the median and ${db95} ms at the 95th percentile inside Postgres (${api50} and ${api95} ms through the API)`,
    );
    expect(section).toHaveTextContent(
      `stores ${ANALYTICS_SCALE.ingestion.endpoint} events a second from ${ANALYTICS_SCALE.ingestion.clients} clients`,
    );
    expect(section).toHaveTextContent(
      'filtered views read raw events of the range; see docs/PERFORMANCE.md',
    );
    expect(section).toHaveTextContent(/monthly range partitions/);
    expect(section).toHaveTextContent(/ClickHouse/);
  });
});
