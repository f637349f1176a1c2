// The app's design system: Chakra's defaults with the brand's type and a few global rules.
import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';
// The brand font, self-hosted (no third-party request); its @font-face rules use font-display: swap.
import '@fontsource-variable/inter/wght.css';

const config = defineConfig({
  globalCss: {
    html: { scrollBehavior: 'smooth', colorPalette: 'teal' },
    body: { bg: 'bg', color: 'fg' },
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
            "'Inter Variable', 'Inter', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        },
        body: {
          value:
            "'Inter Variable', 'Inter', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        },
        mono: {
          value: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace",
        },
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
