// The dashboard's recent forms (skeleton).
export function RecentForms() {
  return null;
}
