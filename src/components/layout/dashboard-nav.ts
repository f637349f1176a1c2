// The dashboard sidebar's entries, and the search that narrows them down.
import type { LucideIcon } from 'lucide-react';
import {
  CalendarDaysIcon,
  ChartColumnIcon,
  FileTextIcon,
  InboxIcon,
  LayoutDashboardIcon,
  MailIcon,
  SettingsIcon,
} from 'lucide-react';
import { paths } from '../../config/paths';

interface EntryBase {
  label: string;
  icon: LucideIcon;
  /** Other words the menu search finds the entry by. */
  keywords?: readonly string[];
}

export interface NavLinkEntry extends EntryBase {
  kind: 'link';
  to: string;
  /** Active only on exactly this path, not on the paths below it. */
  end?: boolean;
  /** Shows the unread message count beside the label. */
  showsUnread?: boolean;
}

/** A tool that is announced but not built yet: shown, marked 'Coming soon', never a link. */
export interface ComingSoonEntry extends EntryBase {
  kind: 'coming-soon';
}

export type NavEntry = NavLinkEntry | ComingSoonEntry;

export const DASHBOARD_NAV: readonly NavEntry[] = [
  {
    kind: 'link',
    label: 'Dashboard',
    to: paths.dashboard,
    icon: LayoutDashboardIcon,
    end: true,
    keywords: ['home', 'overview', 'start'],
  },
  {
    kind: 'link',
    label: 'Forms',
    to: paths.dashboardForms,
    icon: InboxIcon,
    showsUnread: true,
    keywords: ['messages', 'inbox', 'submissions', 'entries', 'form backend'],
  },
  {
    kind: 'link',
    label: 'Booking',
    to: paths.dashboardBooking,
    icon: CalendarDaysIcon,
    keywords: ['appointments', 'calendar', 'scheduling'],
  },
  {
    kind: 'link',
    label: 'Newsletter',
    to: paths.dashboardNewsletter,
    icon: MailIcon,
    keywords: ['subscribers', 'e-mail', 'campaigns', 'lists', 'mailing'],
  },
  {
    kind: 'link',
    label: 'Analytics',
    to: paths.dashboardAnalytics,
    icon: ChartColumnIcon,
    keywords: ['stats', 'visitors', 'page views', 'sites'],
  },
  { kind: 'coming-soon', label: 'CMS', icon: FileTextIcon, keywords: ['content', 'pages', 'blog'] },
  {
    kind: 'link',
    label: 'Settings',
    to: paths.settings,
    icon: SettingsIcon,
    keywords: ['account', 'profile', 'name', 'password', 'delete'],
  },
];

/** The entries whose label or keywords contain the search text (any case); all for no text. */
export function filterNavEntries<T extends Pick<NavEntry, 'label' | 'keywords'>>(
  entries: readonly T[],
  search: string,
): T[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return [...entries];
  return entries.filter((entry) =>
    [entry.label, ...(entry.keywords ?? [])].some((word) =>
      word.toLocaleLowerCase().includes(needle),
    ),
  );
}

/** The unread badge's text: at most two digits. */
export function unreadBadgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
