// The Forms tab as the app composes it: the forms feature's panel, whose Edit dialog shows the
// webhooks feature's section as its Webhooks tab and the form settings feature's sections as its
// Autoresponder, Spam protection and Retention tabs, and the uploads feature's section as its Files
// tab (features never import each other).
import { FormsPanel, type FormsPanelProps } from '../../features/forms';
import {
  AutoresponderSection,
  CaptchaSection,
  RetentionSection,
} from '../../features/form-settings';
import { FilesSection } from '../../features/uploads';
import { WebhooksSection } from '../../features/webhooks';
import type { Tables } from '../../lib/database';

const renderWebhooks = (formId: string) => <WebhooksSection formId={formId} />;

const renderAutoresponder = (form: Tables<'forms'>) => (
  <AutoresponderSection
    formId={form.id}
    formName={form.name}
    allowedOrigin={form.allowed_origin}
    targetVerified={form.target_verified}
  />
);

const renderCaptcha = (form: Tables<'forms'>) => <CaptchaSection form={form} />;

const renderRetention = (formId: string) => <RetentionSection formId={formId} />;

const renderFiles = (formId: string) => <FilesSection formId={formId} />;

export function FormsTab(props: Pick<FormsPanelProps, 'onOpenMessages'>) {
  return (
    <FormsPanel
      {...props}
      renderWebhooks={renderWebhooks}
      renderAutoresponder={renderAutoresponder}
      renderCaptcha={renderCaptcha}
      renderRetention={renderRetention}
      renderFiles={renderFiles}
    />
  );
}
