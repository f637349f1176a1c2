// Terms of Service (effective July 11, 2025), the ten sections of the spec in full prose.
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';
import { site, TERMS_EFFECTIVE_DATE } from '../../config/site';
import { LegalDocument, type LegalSection } from './components/legal-document';

const sections: LegalSection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of the terms',
    body: (
      <p>
        By creating an account, sending data to a tinyback endpoint or otherwise using {site.name}{' '}
        (the "Service"), you agree to these Terms of Service. If you use the Service on behalf of a
        company or other organisation, you confirm that you are authorised to accept these terms for
        it. If you do not agree, do not use the Service.
      </p>
    ),
  },
  {
    id: 'modifications',
    title: 'Modifications to the terms and the Service',
    body: (
      <>
        <p>
          We may update these terms from time to time, for example when we add tools or when the law
          changes. When we make a material change we will announce it on this page and, where
          reasonable, by e-mail at least 14 days before it takes effect. Continuing to use the
          Service after that date means you accept the updated terms.
        </p>
        <p>
          We may also change, suspend or discontinue parts of the Service. We will give reasonable
          notice of changes that significantly reduce what a paid plan includes.
        </p>
      </>
    ),
  },
  {
    id: 'use',
    title: 'Use of the Service',
    body: (
      <>
        <p>
          You may use the Service only for lawful purposes and in line with these terms. In
          particular, you must not:
        </p>
        <ul>
          <li>
            collect data without a lawful basis or without informing the people who submit your
            forms;
          </li>
          <li>
            use forms for phishing, to collect passwords or payment card data, or to distribute
            malware;
          </li>
          <li>send unsolicited bulk messages or use the Service to relay spam;</li>
          <li>
            probe, overload or circumvent the rate limits and security measures of the Service.
          </li>
        </ul>
        <p>
          You are responsible for the forms you publish and for the content submitted through them.
          We may block a form or an endpoint that is being abused.
        </p>
      </>
    ),
  },
  {
    id: 'account-registration',
    title: 'Account registration',
    body: (
      <p>
        To use the dashboard you need an account. You agree to give accurate information, to keep
        your password secret and to tell us promptly at {site.contactEmail} if you suspect
        unauthorised use of your account. You are responsible for everything done with your account.
        You must be at least 16 years old to open an account.
      </p>
    ),
  },
  {
    id: 'support',
    title: 'Support',
    body: (
      <p>
        We provide support by e-mail. Response times depend on your plan: e-mail support on Starter,
        priority support on Pro and premium support with a dedicated account manager on Enterprise.
        Support covers the use of the Service; it does not include building or debugging your
        website, which we offer separately as custom web development.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law',
    body: (
      <p>
        These terms are governed by the laws of the United States and of the State of Delaware,
        without regard to conflict-of-law rules. Mandatory consumer protection laws of the country
        where you live remain unaffected. Any dispute will be resolved by the competent courts of
        Delaware unless the law requires otherwise.
      </p>
    ),
  },
  {
    id: 'limitation-of-liability',
    title: 'Limitation of liability',
    body: (
      <>
        <p>
          The Service is provided "as is". We work hard to keep it available and to deliver every
          submission, but we do not guarantee that it will be uninterrupted or error-free.
        </p>
        <p>
          To the extent permitted by law, our total liability for any claim arising from the Service
          is limited to the amount you paid us in the twelve months before the claim. We are not
          liable for indirect or consequential losses such as lost profits, lost data or lost
          business. Nothing in these terms limits liability for intent, gross negligence or injury
          to life, body or health.
        </p>
      </>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    body: (
      <p>
        You may close your account at any time from the dashboard or by writing to us. We may
        suspend or terminate your access at our discretion, with or without notice, in particular if
        you breach these terms or use the Service in a way that harms others. After termination you
        may export your data for 30 days; after that it is deleted from our systems and, within a
        further 30 days, from our backups.
      </p>
    ),
  },
  {
    id: 'data-privacy',
    title: 'Data privacy',
    body: (
      <p>
        Our handling of personal data is described in our Privacy Policy. For submissions you
        collect through your forms, you are the controller and we process the data on your behalf
        and only to provide the Service. Data is hosted in the European Union and backed up daily.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms? Write to us at{' '}
        <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>.
      </p>
    ),
  },
];

export function TermsPage() {
  return (
    <>
      <PageMeta {...PAGE_META.terms} />
      <LegalDocument
        title="Terms of Service"
        effective={TERMS_EFFECTIVE_DATE}
        intro={
          <p>
            These terms describe the agreement between you and {site.name} for the use of our
            website, our form backend and our other tools. Please read them carefully.
          </p>
        }
        sections={sections}
      />
    </>
  );
}
