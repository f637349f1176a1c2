// The recipes of the Chakra components that the app renders only in what it loads after start-up:
// the lazy pages (dashboard, forms, settings, blog, docs, sign-in…), the profile menu and the
// toasts. A chunk of their own, added to the design system with the first of those
// (use-later-recipes.ts), so the first bundle does not carry them.
import { avatarSlotRecipe } from '#chakra-theme/recipes/avatar';
import { alertSlotRecipe } from '#chakra-theme/recipes/alert';
import { blockquoteSlotRecipe } from '#chakra-theme/recipes/blockquote';
import { checkboxSlotRecipe } from '#chakra-theme/recipes/checkbox';
import { checkmarkRecipe } from '#chakra-theme/recipes/checkmark';
import { dataListSlotRecipe } from '#chakra-theme/recipes/data-list';
import { dialogSlotRecipe } from '#chakra-theme/recipes/dialog';
import { drawerSlotRecipe } from '#chakra-theme/recipes/drawer';
import { emptyStateSlotRecipe } from '#chakra-theme/recipes/empty-state';
import { inputAddonRecipe } from '#chakra-theme/recipes/input-addon';
import { menuSlotRecipe } from '#chakra-theme/recipes/menu';
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
import { toastSlotRecipe } from '#chakra-theme/recipes/toast';
import type { RecipeSet } from './add-recipes';

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
    avatar: avatarSlotRecipe,
    blockquote: blockquoteSlotRecipe,
    checkbox: checkboxSlotRecipe,
    dataList: dataListSlotRecipe,
    dialog: dialogSlotRecipe,
    drawer: drawerSlotRecipe,
    emptyState: emptyStateSlotRecipe,
    menu: menuSlotRecipe,
    nativeSelect: nativeSelectSlotRecipe,
    radioGroup: radioGroupSlotRecipe,
    segmentGroup: segmentGroupSlotRecipe,
    switch: switchSlotRecipe,
    table: tableSlotRecipe,
    tabs: tabsSlotRecipe,
    toast: toastSlotRecipe,
  },
} satisfies RecipeSet;
