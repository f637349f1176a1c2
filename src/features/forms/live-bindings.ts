// How realtime changes of forms reach the cache (skeleton).
import type { LiveBinding } from '../../lib/live-sync';
import { formsKeys } from './api/get-forms';

export const formsLiveBindings: readonly LiveBinding[] = [
  {
    table: 'forms',
    queryKey: formsKeys.all,
    apply: (client) => void client.invalidateQueries({ queryKey: formsKeys.all }),
  },
];
