// The brand font ships with the site: Inter from @fontsource-variable (self-hosted, font-display:
// swap), first in the theme's body and heading fonts. Without it each OS shows its own default.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appSystem } from './theme';

const system = appSystem();

describe('brand font', () => {
  it('puts the self-hosted Inter first in the body and heading fonts', () => {
    for (const token of ['fonts.body', 'fonts.heading']) {
      expect(String(system.token(token))).toMatch(/^'Inter Variable', /);
    }
  });

  it('loads its @font-face rules (font-display: swap) with the entry, before any page', () => {
    // Vitest skips CSS imports, so the import itself is read from the source.
    const entry = readFileSync('src/main.tsx', 'utf8');
    expect(entry).toMatch(/^import '@fontsource-variable\/inter\/wght\.css';$/m);
    const css = readFileSync('node_modules/@fontsource-variable/inter/wght.css', 'utf8');
    expect(css).toContain("font-family: 'Inter Variable'");
    expect(css).toContain('font-display: swap');
    expect(css).not.toMatch(/url\(["']?https?:/);
  });

  it('falls back to a metric-matched local font, so the swap to Inter shifts no text', () => {
    for (const token of ['fonts.body', 'fonts.heading']) {
      expect(String(system.token(token))).toMatch(/^'Inter Variable', 'Inter', 'Inter Fallback', /);
    }
    const entry = readFileSync('src/main.tsx', 'utf8');
    expect(entry).toMatch(/^import '\.\/app\/inter-fallback\.css';$/m);
    const css = readFileSync('src/app/inter-fallback.css', 'utf8');
    expect(css).toContain("font-family: 'Inter Fallback'");
    for (const descriptor of ['size-adjust', 'ascent-override', 'descent-override']) {
      expect(css).toMatch(new RegExp(`${descriptor}: \\d+(\\.\\d+)?%;`));
    }
  });
});
