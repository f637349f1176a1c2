// The design system ships only the recipes the app uses (theme.ts); a Chakra component whose
// recipe is missing renders unstyled without any error. This reads every Chakra component the
// app imports, finds the recipes Chakra's own code asks for (`key: "…"`, following the
// components it renders itself, e.g. Checkbox → Checkmark), and checks the system has each.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recipes, slotRecipes } from '@chakra-ui/react/theme';
import { appSystem } from './theme';

const system = appSystem();

const root = path.resolve(import.meta.dirname, '../..');
const chakraDir = path.join(root, 'node_modules/@chakra-ui/react/dist/esm');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Names the app imports from '@chakra-ui/react' (values, not types). */
function importedNames(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
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

const hasRecipe = (key: string) => system.isRecipe(key) || system.isSlotRecipe(key);
/** Chakra's full theme: a key it has no recipe for either (e.g. Text's) styles nothing anyway. */
const inDefaultTheme = (key: string) => key in recipes || key in slotRecipes;
const lacking = (keys: Set<string>) => [...keys].filter((k) => inDefaultTheme(k) && !hasRecipe(k));

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
    const missing = [...names].flatMap((name) => {
      const folder = folders.get(name);
      if (!folder) return [];
      return lacking(recipeKeys(folder)).map((key) => `${name}: ${key}`);
    });
    expect(missing).toEqual([]);
  });
});
