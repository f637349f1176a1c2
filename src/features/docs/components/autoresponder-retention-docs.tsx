// The docs' autoresponder and retention sections: what a reply contains and when it is (not)
// sent, its caps, and what each retention rule deletes and when.
import { AUTORESPONDER, AUTORESPONSE_COPY_DAYS } from '../autoresponder-facts';
import { formatCount } from '../endpoint-facts';
import { docSection } from '../toc';
import { DocSection } from './doc-section';
import { Bullets, C, Item, Note, P } from './docs-ui';

const field = (name: string) => <C>{`{{${name}}}`}</C>;

export function Autoresponder() {
  const caps = AUTORESPONDER;
  const [name, email, form] = caps.mergeFields;
  return (
    <DocSection {...docSection('autoresponder')}>
      <P>
        Each form can reply automatically to the address a visitor enters in its <C>email</C> field.
        Set it up under <strong>Forms → Edit → Autoresponder</strong>: switch it on, write a subject
        and a plain-text reply, and check the preview. Replies go through the same outbox as every
        other e-mail, retried if the mail server is down; a reply to the reply reaches the
        form&rsquo;s own address.
      </P>
      <P>
        A reply fills three merge fields: {field(name)}, the visitor&rsquo;s name as a short label
        (at most {caps.nameChars} characters on one line, with anything that reads as a link or a
        host name, and every <C>@</C>, removed); {field(email)}, the address the reply goes to; and{' '}
        {field(form)}, the form&rsquo;s name. Every other field, {field('message')} included, is
        left empty: the reply goes to an address nobody has confirmed, so it never repeats what a
        visitor typed, and nobody can use your form to mail their own text to a stranger. Only the
        first {caps.maxMergeFields} merge fields of the subject and of the reply are filled, and a
        template with more is refused when you save it. The values are escaped in the HTML part and
        the subject stays on one line, so nothing can add markup, headers or recipients.
      </P>
      <Bullets>
        <Item>Never for messages marked as spam, and never to an address that is not valid.</Item>
        <Item>At most one reply per address and form within a day, however often it writes.</Item>
        <Item>Only once the form&rsquo;s notification address is confirmed.</Item>
        <Item>
          At most {formatCount(caps.perHour)} replies an hour and {formatCount(caps.perDay)} a day
          per account; {formatCount(caps.perClientPerDay)} a day per account to posts from one
          visitor&rsquo;s network, across all your forms, so one visitor cannot use up your
          allowance; and {formatCount(caps.perRecipientPerDay)} a day to one address from all
          accounts together. Beyond that the message is stored without a reply. Deleting messages or
          forms does not reset these counts.
        </Item>
        <Item>
          Each reply ends with a line saying which form and site the address was entered on.
        </Item>
        <Item>
          The outbox&rsquo;s copy of a reply is deleted with the message it answers (by you, the
          API, a retention rule or the form&rsquo;s deletion), and {AUTORESPONSE_COPY_DAYS} days
          after sending at the latest.
        </Item>
      </Bullets>
      <Note>Replies go out with the scheduled delivery run, within a minute of the message.</Note>
    </DocSection>
  );
}

export function Retention() {
  return (
    <DocSection {...docSection('retention')}>
      <P>
        By default messages are kept until you delete them. Under{' '}
        <strong>Forms → Edit → Retention</strong> a form can instead:
      </P>
      <Bullets>
        <Item>
          <strong>Delete messages after a number of days</strong> (1 to 3650): every message older
          than that, spam included, is deleted.
        </Item>
        <Item>
          <strong>Forward only, don&rsquo;t store</strong>: each message is e-mailed and sent to
          your webhooks, then deleted once every delivery has been sent or has finally failed. A
          message still being retried stays until its last attempt; one with nothing to send
          (notifications off, say) is deleted at once, and so are messages stored before you chose
          this.
        </Item>
      </Bullets>
      <P>
        The inbox says when a form has a rule. Rules are applied every minute by the database
        function <C>sweep_retention()</C>: pg_cron runs it on Supabase (job{' '}
        <C>tinyback-retention-sweep</C>), the local stack&rsquo;s scheduler calls it through the
        REST API. Copies of autoreplies in the outbox go with their message, and{' '}
        {AUTORESPONSE_COPY_DAYS} days after sending at the latest.
      </P>
      <Note>Deleted messages cannot be restored. Export them as CSV first if you need them.</Note>
    </DocSection>
  );
}
