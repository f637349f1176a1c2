// Where a form's messages are: the Forms page's Messages tab, filtered to the form.
import { paths } from '../../config/paths';

export function formMessagesPath(formId: string): string {
  const query = new URLSearchParams({ tab: 'messages', form: formId });
  return `${paths.dashboardForms}?${query.toString()}`;
}
