// The app's design system: Chakra's default theme (tokens, semantic tokens, global styles) with
// the brand's type and a few global rules, but only the component recipes the app renders.
// Chakra's full `defaultConfig` ships every component's recipe (~70 of them) in the first
// JavaScript every page loads; `defaultBaseConfig` plus these lists keeps the same look for less.
// The recipes of components that only what loads later renders (the lazy pages, the profile
// menu, the toasts) come with it: src/components/theme/use-later-recipes.ts.
// A component added to the app needs its recipe in one of the two lists, or it renders unstyled:
// theme.test.ts checks every Chakra component imported under src/ against them.
//
// Chakra's parts come from its own modules (`#chakra-theme/…`, an alias set in vite.config.ts)
// rather than from '@chakra-ui/react/theme': that module re-exports every recipe, and once the bundle
// includes it the bundler puts all the recipes the app uses, the later ones too, in the start-up
// chunk. theme.test.ts checks the tokens composed here equal Chakra's own.
import {
  createSystem,
  defaultBaseConfig,
  defineConfig,
  mergeConfigs,
  type SystemContext,
} from '@chakra-ui/react';
import { breakpoints } from '#chakra-theme/breakpoints';
import { globalCss } from '#chakra-theme/global-css';
import { layerStyles } from '#chakra-theme/layer-styles';
import { animationStyles } from '#chakra-theme/motion-styles';
import { badgeRecipe } from '#chakra-theme/recipes/badge';
import { buttonRecipe } from '#chakra-theme/recipes/button';
import { cardSlotRecipe } from '#chakra-theme/recipes/card';
import { codeRecipe } from '#chakra-theme/recipes/code';
import { containerRecipe } from '#chakra-theme/recipes/container';
import { fieldSlotRecipe } from '#chakra-theme/recipes/field';
import { headingRecipe } from '#chakra-theme/recipes/heading';
import { iconRecipe } from '#chakra-theme/recipes/icon';
import { inputRecipe } from '#chakra-theme/recipes/input';
import { linkRecipe } from '#chakra-theme/recipes/link';
import { listSlotRecipe } from '#chakra-theme/recipes/list';
import { spinnerRecipe } from '#chakra-theme/recipes/spinner';
import { semanticColors } from '#chakra-theme/semantic-tokens/colors';
import { semanticRadii } from '#chakra-theme/semantic-tokens/radii';
import { semanticShadows } from '#chakra-theme/semantic-tokens/shadows';
import { textStyles } from '#chakra-theme/text-styles';
import { animations } from '#chakra-theme/tokens/animations';
import { aspectRatios } from '#chakra-theme/tokens/aspect-ratios';
import { blurs } from '#chakra-theme/tokens/blurs';
import { borders } from '#chakra-theme/tokens/borders';
import { colors } from '#chakra-theme/tokens/colors';
import { cursor } from '#chakra-theme/tokens/cursor';
import { durations } from '#chakra-theme/tokens/durations';
import { easings } from '#chakra-theme/tokens/easings';
import { fontSizes } from '#chakra-theme/tokens/font-sizes';
import { fontWeights } from '#chakra-theme/tokens/font-weights';
import { fonts } from '#chakra-theme/tokens/fonts';
import { keyframes } from '#chakra-theme/tokens/keyframes';
import { letterSpacings } from '#chakra-theme/tokens/letter-spacing';
import { lineHeights } from '#chakra-theme/tokens/line-heights';
import { radii } from '#chakra-theme/tokens/radius';
import { sizes } from '#chakra-theme/tokens/sizes';
import { spacing } from '#chakra-theme/tokens/spacing';
import { zIndices } from '#chakra-theme/tokens/z-indices';
import type { RecipeSet } from '../components/theme/add-recipes';

/** Chakra's default tokens and semantic tokens, as its theme composes them. */
export const defaultTokens = {
  tokens: {
    aspectRatios,
    animations,
    blurs,
    borders,
    colors,
    durations,
    easings,
    fonts,
    fontSizes,
    fontWeights,
    letterSpacings,
    lineHeights,
    radii,
    spacing,
    sizes,
    zIndex: zIndices,
    cursor,
  },
  semanticTokens: { colors: semanticColors, shadows: semanticShadows, radii: semanticRadii },
};

/** Recipes of what the app renders before it loads anything more: the layout and the home page. */
const startupRecipes = {
  recipes: {
    badge: badgeRecipe,
    button: buttonRecipe,
    code: codeRecipe,
    container: containerRecipe,
    heading: headingRecipe,
    icon: iconRecipe,
    input: inputRecipe,
    link: linkRecipe,
    spinner: spinnerRecipe,
  },
  slotRecipes: {
    card: cardSlotRecipe,
    field: fieldSlotRecipe,
    list: listSlotRecipe,
  },
} satisfies RecipeSet;

/** Chakra's default theme (as in `defaultConfig`) with only the start-up recipes. */
const themeConfig = defineConfig({
  preflight: true,
  // Chakra's defaults (its theme module's cssVarsPrefix and cssVarsRoot).
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    ...defaultTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: { ...startupRecipes.recipes },
    slotRecipes: { ...startupRecipes.slotRecipes },
  },
});

const brandConfig = defineConfig({
  globalCss: {
    html: { scrollBehavior: 'smooth', colorPalette: 'teal' },
    body: { bg: 'bg', color: 'fg' },
    // Lucide icons (lucide-react) draw at 24px by default; the app's icons follow the text size,
    // as icon fonts do, unless a recipe or a style prop sizes them. Global styles sit in the
    // lowest style layer, so any recipe (Button, Menu, Input…) or boxSize still wins.
    '.lucide': { width: '1em', height: '1em' },
  },
  theme: {
    semanticTokens: {
      colors: {
        // Chakra's teal.600 fill gives white text only 3.7:1; one step darker meets WCAG AA (4.5:1).
        teal: {
          solid: { value: '{colors.teal.700}' },
          fg: { value: { _light: '{colors.teal.700}', _dark: '{colors.teal.300}' } },
        },
        // Chakra's red.500 error text (a field's message) is 3.8:1 on white; red.600 is 4.8:1.
        fg: { error: { value: { _light: '{colors.red.600}', _dark: '{colors.red.400}' } } },
      },
    },
    tokens: {
      fonts: {
        heading: {
          value:
            "'Inter Variable', 'Inter', 'Inter Fallback', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        },
        body: {
          value:
            "'Inter Variable', 'Inter', 'Inter Fallback', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        },
        mono: {
          value: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace",
        },
      },
    },
  },
});

/** A new design system with the start-up recipes (tests; the app uses `appSystem`). */
export const createAppSystem = (): SystemContext =>
  createSystem(mergeConfigs(defaultBaseConfig, themeConfig), brandConfig);

let created: SystemContext | undefined;

/**
 * The design system, made on first use. Making it (Chakra's tokens, conditions and utilities) is
 * one of the longer pieces of start-up work; src/main.tsx runs it in a task of its own.
 */
export function appSystem(): SystemContext {
  created ??= createAppSystem();
  return created;
}
