// The markdown renderer: GFM on, soft line breaks, no raw HTML, safe links, bad input throws.
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { Markdown } from './markdown';

function renderMarkdown(content: unknown) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <MemoryRouter>
        <Markdown content={content} />
      </MemoryRouter>
    </ChakraProvider>,
  );
}

describe('Markdown', () => {
  it('renders GFM tables', () => {
    renderMarkdown('| Plan | Price |\n| --- | --- |\n| Pro | 19 |\n');
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Plan' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: '19' })).toBeInTheDocument();
  });

  it('renders GFM strikethrough and task lists', () => {
    const { container } = renderMarkdown('~~old~~ new\n\n- [x] shipped\n- [ ] planned\n');
    expect(container.querySelector('del')).toHaveTextContent('old');
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toBeChecked();
    expect(boxes[1]).not.toBeChecked();
    expect(boxes[0]).toBeDisabled();
  });

  it('renders GFM autolinks', () => {
    renderMarkdown('See https://example.com/docs for more.');
    expect(screen.getByRole('link', { name: 'https://example.com/docs' })).toHaveAttribute(
      'href',
      'https://example.com/docs',
    );
  });

  it('keeps a single newline soft: no <br>', () => {
    const { container } = renderMarkdown('first line\nsecond line');
    expect(container.querySelector('br')).toBeNull();
    expect(container.querySelectorAll('p')).toHaveLength(1);
    expect(container.querySelector('p')?.textContent).toBe('first line\nsecond line');
  });

  it('never turns raw HTML into elements', () => {
    const { container } = renderMarkdown(
      'Hello <script>window.__pwned = true</script>\n\n<img src="x" onerror="window.__pwned = true">\n\n<b>bold?</b>',
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
    expect((window as unknown as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it('drops javascript: link targets and isolates external links', () => {
    const { container } = renderMarkdown(
      '[click](javascript:alert(1)) and [site](https://example.com)',
    );
    expect(container).toHaveTextContent('click');
    expect(screen.queryByRole('link', { name: 'click' })).toBeNull();
    expect(container.innerHTML).not.toMatch(/javascript:/i);
    const good = screen.getByRole('link', { name: 'site' });
    expect(good).toHaveAttribute('target', '_blank');
    expect(good.getAttribute('rel')).toContain('noopener');
  });

  it('keeps site paths as in-app links', () => {
    renderMarkdown('[the docs](/docs)');
    const link = screen.getByRole('link', { name: 'the docs' });
    expect(link).toHaveAttribute('href', '/docs');
    expect(link).not.toHaveAttribute('target');
  });

  it('renders fenced code blocks inside <pre>', () => {
    const { container } = renderMarkdown('```html\n<form></form>\n```');
    const pre = container.querySelector('pre');
    expect(pre).not.toBeNull();
    expect(pre?.querySelector('code')).toHaveTextContent('<form></form>');
    expect(container.querySelector('form')).toBeNull();
  });

  it('gives each code block a labelled copy button that copies the code as written', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { container } = renderMarkdown(
      'Intro\n\n```html\n<form action="/x">\n  <input name="email">\n</form>\n```\n\n```\nplain\n```',
    );
    const copyHtml = within(container).getByRole('button', { name: 'Copy: HTML code' });
    expect(within(container).getByRole('button', { name: 'Copy: Code' })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(copyHtml);
    });
    // Exactly the block's text: no markup, no trailing blank line.
    expect(writeText).toHaveBeenCalledWith('<form action="/x">\n  <input name="email">\n</form>');
    expect(copyHtml).toHaveAccessibleName('Copied: HTML code');
    expect(copyHtml).toHaveTextContent('Copied');
  });

  it('shifts headings down so the page keeps its single h1', () => {
    renderMarkdown('# Title in body\n\n## Section');
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Title in body' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Section' })).toBeInTheDocument();
  });

  it.each([undefined, null, 42, { text: 'x' }])('throws for non-string input %o', (input) => {
    // React logs caught render errors; keep the output clean.
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderMarkdown(input)).toThrow('Markdown content must be a string');
    spy.mockRestore();
  });
});
