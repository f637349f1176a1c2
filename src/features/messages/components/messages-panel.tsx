// The Messages tab (skeleton).
export interface FormOption {
  id: string;
  name: string;
}

export interface MessagesPanelProps {
  /** The owner's forms, for the filter and names. */
  forms: readonly FormOption[];
}

export function MessagesPanel(_props: MessagesPanelProps) {
  return <p>No messages received yet.</p>;
}
