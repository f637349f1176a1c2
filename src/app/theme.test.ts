// The design system ships only the recipes the app uses (theme.ts); a Chakra component whose
// recipe is missing renders unstyled without any error. This reads every Chakra component the
// app imports, finds the recipes Chakra's own code asks for (`key: "…"`, following the
// components it renders itself, e.g. Checkbox → Checkmark), and checks the system has each: at
// start for what the app renders before it loads the later recipes (with a lazy page, the profile
// menu or the toasts: src/components/theme/use-later-recipes.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cssVarsPrefix,
  cssVarsRoot,
  recipes,
  semanticTokens,
  slotRecipes,
  tokens,
} from '@chakra-ui/react/theme';
import { addRecipes } from '../components/theme/add-recipes';
import { laterRecipes } from '../components/theme/later-recipes';
import { createAppSystem, defaultTokens } from './theme';

/** The system as the app starts, and as it is once the later recipes have arrived. */
const startupSystem = createAppSystem();
const system = createAppSystem();
addRecipes(system, laterRecipes);

const root = path.resolve(import.meta.dirname, '../..');
const chakraDir = path.join(root, 'node_modules/@chakra-ui/react/dist/esm');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The module a relative import names, as a file under src/. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
    .map((suffix) => base + suffix)
    .find((file) => /\.tsx?$/.test(file) && existsSync(file));
}

/**
 * The modules the app can render before the later recipes arrive: from src/main.tsx, every
 * relative import, static or dynamic, except the dynamic imports in modules that make lazy pages
 * (`lazyPage(…)`, which loads the later recipes with each page), and no module that waits for
 * them itself (`useLaterRecipes()`).
 */
function startupFiles(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, 'utf8');
    if (/\buseLaterRecipes\(\)/.test(text)) return;
    seen.add(file);
    const makesLazyPages = /\blazyPage\(/.test(text);
    const imports = [
      ...text.matchAll(/\b(?:from|import)\s+'(\.[^']+)'/g),
      ...(makesLazyPages ? [] : text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)),
    ];
    for (const [, specifier] of imports) {
      const target = resolveImport(file, specifier);
      if (target) visit(target);
    }
  };
  visit(path.join(root, 'src/main.tsx'));
  return [...seen];
}

/** Names the given files import from '@chakra-ui/react' (values, not types). */
function importedNames(files = sourceFiles(path.join(root, 'src'))): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(
      /import\s+(?!type\s)\{([^}]*)\}\s+from\s+'@chakra-ui\/react'/g,
    )) {
      for (const part of match[1].split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0];
        if (name && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

/** Chakra's export name → the component folder it comes from (from its index.js). */
function componentFolders(): Map<string, string> {
  const index = readFileSync(path.join(chakraDir, 'index.js'), 'utf8');
  const folders = new Map<string, string>();
  const namespaces = new Map<string, string>();
  for (const m of index.matchAll(/import \* as (\S+) from '\.\/components\/([\w-]+)\//g)) {
    namespaces.set(m[1], m[2]);
  }
  for (const m of index.matchAll(/export \{([^}]*)\}(?: from '\.\/components\/([\w-]+)\/)?/g)) {
    for (const part of m[1].split(',')) {
      const [local, exported = local] = part.trim().split(/\s+as\s+/);
      const folder = m[2] ?? namespaces.get(local);
      if (folder) folders.set(exported, folder);
    }
  }
  return folders;
}

/** The recipe keys a component folder asks for, with those of the folders it renders. */
function recipeKeys(folder: string, seen = new Set<string>()): Set<string> {
  const keys = new Set<string>();
  if (seen.has(folder)) return keys;
  seen.add(folder);
  const dir = path.join(chakraDir, 'components', folder);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/\bkey: "(\w+)"/g)) keys.add(m[1]);
    for (const m of text.matchAll(/from '\.\.\/([\w-]+)\//g)) {
      recipeKeys(m[1], seen).forEach((key) => keys.add(key));
    }
  }
  return keys;
}

type System = typeof system;
const hasRecipe = (sys: System, key: string) => sys.isRecipe(key) || sys.isSlotRecipe(key);
/** Chakra's full theme: a key it has no recipe for either (e.g. Text's) styles nothing anyway. */
const inDefaultTheme = (key: string) => key in recipes || key in slotRecipes;
const lacking = (keys: Set<string>, sys: System = system) =>
  [...keys].filter((k) => inDefaultTheme(k) && !hasRecipe(sys, k));

/** "Name: recipe" for each imported component whose recipe the system lacks. */
function missingRecipes(names: Set<string>, folders: Map<string, string>, sys: System) {
  return [...names].flatMap((name) => {
    const folder = folders.get(name);
    if (!folder) return [];
    return lacking(recipeKeys(folder), sys).map((key) => `${name}: ${key}`);
  });
}

describe('the design system', () => {
  const folders = componentFolders();

  it('finds the recipes a component asks for, and notices one the system lacks', () => {
    expect(recipeKeys(folders.get('Button')!)).toContain('button');
    expect(recipeKeys(folders.get('Checkbox')!)).toEqual(new Set(['checkbox', 'checkmark']));
    // Slider is not used by the app, so its recipe is left out: the check would catch it.
    expect(lacking(recipeKeys(folders.get('Slider')!))).toEqual(['slider']);
  });

  it('has the recipe of every Chakra component the app imports', () => {
    const names = importedNames();
    expect(names.size).toBeGreaterThan(10);
    expect(missingRecipes(names, folders, system)).toEqual([]);
  });

  it('has at start the recipe of every Chakra component rendered before the later ones', () => {
    const files = startupFiles().map((file) => path.relative(root, file));
    // The walk reaches the layout, the home page and what they import…
    for (const file of [
      'src/components/layout/header.tsx',
      'src/components/layout/footer.tsx',
      'src/components/text-field.tsx',
      'src/features/home/components/hero.tsx',
    ]) {
      expect(files).toContain(file);
    }
    // …but not the lazily loaded pages, nor the profile menu and the toasts: they bring the rest.
    for (const file of [
      'src/features/pricing/pricing-page.tsx',
      'src/components/confirm-dialog.tsx',
      'src/components/layout/profile-menu.tsx',
      'src/components/toaster-view.tsx',
    ]) {
      expect(files).not.toContain(file);
    }
    const names = importedNames(startupFiles());
    expect(missingRecipes(names, folders, startupSystem)).toEqual([]);
    // A later recipe is missing at start: the check above would notice one used at start-up.
    expect(missingRecipes(new Set(['Switch']), folders, startupSystem)).toEqual(['Switch: switch']);
  });

  it("composes Chakra's default tokens as Chakra's theme does", () => {
    expect(defaultTokens.tokens).toEqual(tokens);
    expect(defaultTokens.semanticTokens).toEqual(semanticTokens);
    expect(system._config.cssVarsPrefix).toBe(cssVarsPrefix);
    expect(system._config.cssVarsRoot).toBe(cssVarsRoot);
  });

  it('adds recipes to a system that Chakra then uses', () => {
    const fresh = createAppSystem();
    expect(fresh.isSlotRecipe('dialog')).toBe(false);
    addRecipes(fresh, laterRecipes);
    expect(fresh.isSlotRecipe('dialog')).toBe(true);
    expect(fresh.getSlotRecipeFn('dialog').classNameMap.content).toBe('chakra-dialog__content');
    // The start-up recipes stay.
    expect(fresh.isRecipe('button')).toBe(true);
  });
});
