// The Forms tab as the app composes it: the forms feature's panel, whose Edit dialog shows the
// webhooks feature's section as its Webhooks tab (features never import each other).
import { FormsPanel, type FormsPanelProps } from '../../features/forms';
import { WebhooksSection } from '../../features/webhooks';

const renderWebhooks = (formId: string) => <WebhooksSection formId={formId} />;

export function FormsTab(props: Omit<FormsPanelProps, 'renderWebhooks'>) {
  return <FormsPanel {...props} renderWebhooks={renderWebhooks} />;
}
