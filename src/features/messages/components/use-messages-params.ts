// The Messages tab's state, kept in the URL beside `tab=messages` so reload, links and the back
// button work: `form` (one form), `view=spam`, `q` (search), `files=1` (only messages with files)
// and `message` (the open message).
import { useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { filterFromParams, isUuid } from '../message-query';
import type { MessageFilter, MessageView } from '../types';

/** History state of an entry pushed by opening a message from the list. */
interface OpenedState {
  openedFromList?: boolean;
}

export function useMessagesParams() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const filter: MessageFilter = useMemo(() => filterFromParams(params), [params]);
  const rawMessage = params.get('message');
  const messageId = isUuid(rawMessage) ? rawMessage.toLowerCase() : null;

  /** Sets or (with null) removes params, keeping every other one (tab first of all). */
  function update(
    changes: Record<string, string | null>,
    options: { replace?: boolean; state?: OpenedState } = {},
  ) {
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
      }
      return next;
    }, options);
  }

  return {
    filter,
    messageId,
    setForm: (formId: string | null) => update({ form: formId }),
    setView: (view: MessageView) => update({ view: view === 'spam' ? 'spam' : null }),
    setFiles: (files: boolean) => update({ files: files ? '1' : null }),
    // Typing replaces the entry: one history step per search, not per debounce.
    setSearch: (q: string) => update({ q: q.trim() || null }, { replace: true }),
    openMessage: (id: string) => update({ message: id }, { state: { openedFromList: true } }),
    closeMessage: () => {
      // Back to the list entry the message was opened from, so Back does not reopen it; a deep
      // link has no such entry, so the message is dropped from this one.
      if ((location.state as OpenedState | null)?.openedFromList) void navigate(-1);
      else update({ message: null }, { replace: true });
    },
  };
}
