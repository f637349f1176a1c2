// Public face of the messages (inbox) feature (skeleton; filled in by the messages work).
export { MessagesPanel } from './components/messages-panel';
export { useUnreadCount } from './api/get-unread-count';
export { messagesLiveBindings } from './live-bindings';
