import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../components/testing/render';
import { ToolsPage } from './tools-page';

describe('ToolsPage', () => {
  it('offers the shipped webhooks and auto-responders as available, with their docs', () => {
    renderWithProviders(<ToolsPage />);
    for (const [name, anchor] of [
      ['Webhooks & integrations', '/docs#webhooks'],
      ['Auto-responders', '/docs#autoresponder'],
    ] as const) {
      const card = screen.getByRole('heading', { name }).closest('article')!;
      expect(within(card).getByText('Available')).toBeInTheDocument();
      expect(within(card).getByRole('link', { name: 'Read the docs' })).toHaveAttribute(
        'href',
        anchor,
      );
    }
  });
});
