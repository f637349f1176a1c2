// The brand logos the site shows (the footer's social links, the home page's supported stacks,
// the self-hosting card): drawn from one SVG sprite in public/ (scripts/write-brand-icons.ts)
// rather than shipped as JavaScript path data in the first bundle.

/** Where the sprite is served; each logo is its `<symbol id>` inside. */
export const BRAND_ICONS_URL = '/brand-icons.svg';

/** Each logo's id in the sprite, with the react-icons component it is drawn from. */
export const BRAND_ICON_SOURCES = {
  github: 'fa6/FaGithub',
  x: 'fa6/FaXTwitter',
  linkedin: 'fa6/FaLinkedin',
  html5: 'si/SiHtml5',
  react: 'si/SiReact',
  nextjs: 'si/SiNextdotjs',
  vue: 'si/SiVuedotjs',
  svelte: 'si/SiSvelte',
  astro: 'si/SiAstro',
  gatsby: 'si/SiGatsby',
  hugo: 'si/SiHugo',
  wordpress: 'si/SiWordpress',
  webflow: 'si/SiWebflow',
} as const;

export type BrandIconName = keyof typeof BRAND_ICON_SOURCES;
