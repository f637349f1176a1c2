import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../components/testing/render';
import { initials, TestimonialsSection } from './home-sections';

/** The CSS rules the design system generated for an element's classes. */
function rulesFor(element: Element): string {
  const css = [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n');
  return [...element.classList]
    .flatMap((name) => css.match(new RegExp(`\\.${name}[^{]*\\{[^}]*\\}`, 'g')) ?? [])
    .join('\n');
}

describe('the testimonials', () => {
  it('abbreviate a name as Chakra’s Avatar does', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('Jean Luc Picard')).toBe('JP');
    expect(initials('  Grace ')).toBe('G');
  });

  it('show each author’s initials in the avatar’s style beside the name', () => {
    renderWithProviders(<TestimonialsSection />);
    const captions = screen
      .getAllByRole('figure')
      .map((figure) => figure.querySelector('figcaption')!);
    expect(captions.length).toBeGreaterThan(0);
    for (const caption of captions) {
      const name = within(caption).getAllByText(/\S/)[1].textContent!;
      const avatar = within(caption).getByText(initials(name));
      // The avatar recipe's size md (a fixed round box), in the CSS generated for its class.
      expect(rulesFor(avatar.parentElement!)).toMatch(/--avatar-size:\s*var\(--chakra-sizes-10\)/);
    }
  });
});
