// Public face of the messages (inbox) feature: the Messages tab, the unread count shown by the
// tab and the sidebar, and the realtime bindings the dashboard layout subscribes with.
export { MessagesPanel } from './components/messages-panel';
export { useUnreadCount } from './api/get-unread-count';
export { messagesLiveBindings } from './live-bindings';
