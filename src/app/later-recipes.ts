// The recipes of the Chakra components that only lazily loaded pages render (dashboard, forms,
// settings, blog, docs, sign-in…): a chunk of their own, added to the design system with the
// first such page (theme.ts, `loadLaterRecipes`), so the first bundle does not carry them.
import { alertSlotRecipe } from '#chakra-theme/recipes/alert';
import { blockquoteSlotRecipe } from '#chakra-theme/recipes/blockquote';
import { checkboxSlotRecipe } from '#chakra-theme/recipes/checkbox';
import { checkmarkRecipe } from '#chakra-theme/recipes/checkmark';
import { dataListSlotRecipe } from '#chakra-theme/recipes/data-list';
import { dialogSlotRecipe } from '#chakra-theme/recipes/dialog';
import { drawerSlotRecipe } from '#chakra-theme/recipes/drawer';
import { emptyStateSlotRecipe } from '#chakra-theme/recipes/empty-state';
import { inputAddonRecipe } from '#chakra-theme/recipes/input-addon';
import { nativeSelectSlotRecipe } from '#chakra-theme/recipes/native-select';
import { radioGroupSlotRecipe } from '#chakra-theme/recipes/radio-group';
import { radiomarkRecipe } from '#chakra-theme/recipes/radiomark';
import { segmentGroupSlotRecipe } from '#chakra-theme/recipes/segment-group';
import { separatorRecipe } from '#chakra-theme/recipes/separator';
import { skeletonRecipe } from '#chakra-theme/recipes/skeleton';
import { switchSlotRecipe } from '#chakra-theme/recipes/switch';
import { tableSlotRecipe } from '#chakra-theme/recipes/table';
import { tabsSlotRecipe } from '#chakra-theme/recipes/tabs';
import { textareaRecipe } from '#chakra-theme/recipes/textarea';
import type { RecipeSet } from './theme';

export const laterRecipes = {
  recipes: {
    checkmark: checkmarkRecipe,
    inputAddon: inputAddonRecipe,
    radiomark: radiomarkRecipe,
    separator: separatorRecipe,
    skeleton: skeletonRecipe,
    textarea: textareaRecipe,
  },
  slotRecipes: {
    alert: alertSlotRecipe,
    blockquote: blockquoteSlotRecipe,
    checkbox: checkboxSlotRecipe,
    dataList: dataListSlotRecipe,
    dialog: dialogSlotRecipe,
    drawer: drawerSlotRecipe,
    emptyState: emptyStateSlotRecipe,
    nativeSelect: nativeSelectSlotRecipe,
    radioGroup: radioGroupSlotRecipe,
    segmentGroup: segmentGroupSlotRecipe,
    switch: switchSlotRecipe,
    table: tableSlotRecipe,
    tabs: tabsSlotRecipe,
  },
} satisfies RecipeSet;
