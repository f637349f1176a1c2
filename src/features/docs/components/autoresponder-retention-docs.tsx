// The docs' autoresponder and retention sections: what a reply contains and when it is (not)
// sent, its caps, and what each retention rule deletes and when.
import { AUTORESPONDER_CAPS } from '../autoresponder-facts';
import { docSection } from '../toc';
import { DocSection } from './doc-section';
import { Bullets, C, Item, Note, P } from './docs-ui';

export function Autoresponder() {
  const caps = AUTORESPONDER_CAPS;
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
        Merge fields fill in what the visitor sent: <C>{'{{name}}'}</C>, <C>{'{{email}}'}</C>,{' '}
        <C>{'{{message}}'}</C>, <C>{'{{form}}'}</C> (the form&rsquo;s name), or any other field of
        your form by its name, such as <C>{'{{company}}'}</C>. An unknown field is left empty. The
        values are escaped in the HTML part, and put on one line in the subject, so a visitor cannot
        add markup, headers or recipients.
      </P>
      <Bullets>
        <Item>Never for messages marked as spam, and never to an address that is not valid.</Item>
        <Item>At most one reply per address and form within a day, however often it writes.</Item>
        <Item>Only once the form&rsquo;s notification address is confirmed.</Item>
        <Item>
          At most {caps.perHour} replies an hour and {caps.perDay} a day per account, and{' '}
          {caps.perRecipientPerDay} a day to one address from all accounts together; beyond that the
          message is stored without a reply. Each reply ends with a line saying which form and site
          the address was entered on.
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
        REST API. Copies of autoreplies in the outbox follow the form&rsquo;s rule and are kept at
        most 30 days.
      </P>
      <Note>Deleted messages cannot be restored. Export them as CSV first if you need them.</Note>
    </DocSection>
  );
}
