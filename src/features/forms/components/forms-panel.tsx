// The Forms tab (skeleton).
export interface FormsPanelProps {
  /** Opens the Messages tab filtered to one form. */
  onOpenMessages: (formId: string) => void;
}

export function FormsPanel(_props: FormsPanelProps) {
  return <p>Your Forms</p>;
}
