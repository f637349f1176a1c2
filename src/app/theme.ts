// The app's design system: Chakra's default theme (tokens, semantic tokens, global styles) with
// the brand's type and a few global rules, but only the component recipes the app renders.
// Chakra's full `defaultConfig` ships every component's recipe (~70 of them) in the first
// JavaScript every page loads; `defaultBaseConfig` plus this list keeps the same look for less.
// A component added to the app needs its recipe here, or it renders unstyled: theme.test.ts
// checks every Chakra component imported under src/ against this list.
import { createSystem, defaultBaseConfig, defineConfig, mergeConfigs } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  blockquoteSlotRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  segmentGroupSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/** Chakra's default theme (as in `defaultConfig`) with only the recipes listed here. */
const themeConfig = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      radiomark: radiomarkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      blockquote: blockquoteSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      emptyState: emptyStateSlotRecipe,
      field: fieldSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      segmentGroup: segmentGroupSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
    },
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

let created: ReturnType<typeof createSystem> | undefined;

/**
 * The design system, made on first use. Making it (Chakra's tokens, conditions and utilities) is
 * one of the longer pieces of start-up work; src/main.tsx runs it in a task of its own.
 */
export function appSystem(): ReturnType<typeof createSystem> {
  created ??= createSystem(mergeConfigs(defaultBaseConfig, themeConfig), brandConfig);
  return created;
}
