// A brand logo from the sprite in public/ (src/config/brand-icons.ts): an inline <svg> that
// references its <symbol>, so the logo takes the text colour and size like any other icon.
import { Icon, type IconProps } from '@chakra-ui/react';
import { BRAND_ICONS_URL, type BrandIconName } from '../config/brand-icons';

export function BrandIcon({ name, ...props }: { name: BrandIconName } & IconProps) {
  return (
    <Icon asChild aria-hidden {...props}>
      <svg width="1em" height="1em" fill="currentColor" focusable="false">
        <use href={`${BRAND_ICONS_URL}#${name}`} />
      </svg>
    </Icon>
  );
}
