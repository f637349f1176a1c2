// How realtime changes of entries reach the cache (skeleton).
import type { LiveBinding } from '../../lib/live-sync';

export const messagesLiveBindings: readonly LiveBinding[] = [];
