// Recipes added to a design system after it was made: Chakra looks a recipe up in the system's
// theme when a component first renders with it, so one added before that styles the component as
// if it had been there from the start. The app starts with the recipes of what it renders first
// (src/app/theme.ts) and adds the rest with the code that renders them (use-later-recipes.ts).
import type { SystemConfig, SystemContext } from '@chakra-ui/react';

type Theme = NonNullable<SystemConfig['theme']>;

export interface RecipeSet {
  recipes: NonNullable<Theme['recipes']>;
  slotRecipes: NonNullable<Theme['slotRecipes']>;
}

/** Gives a system more recipes; they must arrive before the components that use them render. */
export function addRecipes(system: SystemContext, more: RecipeSet): void {
  const theme = (system._config.theme ??= {});
  Object.assign((theme.recipes ??= {}), more.recipes);
  Object.assign((theme.slotRecipes ??= {}), more.slotRecipes);
}
