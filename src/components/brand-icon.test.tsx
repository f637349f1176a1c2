import { describe, expect, it } from 'vitest';
import { renderWithProviders } from './testing/render';
import { BrandIcon } from './brand-icon';

describe('BrandIcon', () => {
  it("references the logo's symbol in the sprite, in the text colour, hidden from screen readers", () => {
    const { container } = renderWithProviders(<BrandIcon name="github" boxSize="8" />);
    const svg = container.querySelector('svg')!;
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg).toHaveAttribute('fill', 'currentColor');
    expect(svg.querySelector('use')).toHaveAttribute('href', '/brand-icons.svg#github');
  });
});
