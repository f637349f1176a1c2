// The dashboard's start page (skeleton).
import type { ReactNode } from 'react';

export function DashboardHome({ recentForms }: { recentForms: ReactNode }) {
  return <div>{recentForms}</div>;
}
