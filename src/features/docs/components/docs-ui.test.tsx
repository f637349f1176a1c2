// The docs' inline code: chips never break inside a word, long ones only at spaces and after
// slashes, and `backticked` parts of data-driven text become chips.
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../components/testing/render';
import { C, CodeText } from './docs-ui';

const words = (code: Element) =>
  Array.from(code.querySelectorAll('span')).map((span) => ({
    text: span.textContent,
    nowrap: span.style.whiteSpace === 'nowrap',
  }));

describe('C', () => {
  it('keeps a name on one unbreakable piece', () => {
    const { container } = renderWithProviders(<C>origin_not_allowed</C>);
    const code = container.querySelector('code')!;
    expect(words(code)).toEqual([{ text: 'origin_not_allowed', nowrap: true }]);
    expect(code.querySelector('wbr')).toBeNull();
  });

  it('lets a method and path wrap at the space and after each slash only', () => {
    const { container } = renderWithProviders(<C>GET /functions/v1/forms/{'{formId}'}</C>);
    const code = container.querySelector('code')!;
    expect(code).toHaveTextContent('GET /functions/v1/forms/{formId}');
    expect(words(code)).toEqual([
      { text: 'GET', nowrap: true },
      { text: '/functions/v1/forms/{formId}', nowrap: true },
    ]);
    expect(code.querySelectorAll('wbr')).toHaveLength(4);
  });

  it('does not break between the slashes of a scheme', () => {
    const { container } = renderWithProviders(<C>https://example.com</C>);
    const code = container.querySelector('code')!;
    // One opportunity, after "https://", none between its two slashes.
    expect(code.querySelectorAll('wbr')).toHaveLength(1);
    expect(code.innerHTML).toContain('https://<wbr>');
  });
});

describe('CodeText', () => {
  it('turns backticked parts into code chips and keeps the rest as text', () => {
    const { container } = renderWithProviders(
      <p>
        <CodeText text="A field breaks a rule. `fields` says which; see `Retry-After`." />
      </p>,
    );
    const p = container.querySelector('p')!;
    expect(p).toHaveTextContent('A field breaks a rule. fields says which; see Retry-After.');
    expect(p.textContent).not.toContain('`');
    expect(Array.from(p.querySelectorAll('code')).map((c) => c.textContent)).toEqual([
      'fields',
      'Retry-After',
    ]);
  });
});
