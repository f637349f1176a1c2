// Privacy Policy: the sections of the spec in full prose (requests answered within one month).
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';
import { PRIVACY_RESPONSE_TIME, site, TERMS_EFFECTIVE_DATE } from '../../config/site';
import { LegalDocument, type LegalSection } from './components/legal-document';

const requests = (
  <p>
    If you make a request, we have {PRIVACY_RESPONSE_TIME} to respond to you. To exercise any of
    these rights, contact us at <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>.
  </p>
);

const sections: LegalSection[] = [
  {
    id: 'consent',
    title: 'Consent',
    body: <p>By using our website, you consent to this Privacy Policy and agree to its terms.</p>,
  },
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    body: (
      <>
        <p>
          When you register for an account, we ask for your name, e-mail address and a password
          (stored only as a hash). When you subscribe to our newsletter, we store your e-mail
          address and the time you subscribed.
        </p>
        <p>
          When visitors submit one of your forms, we store the fields of that submission, the form
          it was sent to and the time it arrived, so that we can deliver it to you. If you contact
          us directly, we keep the contents of your message and any attachments you send.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-use-information',
    title: 'How we use your information',
    body: (
      <>
        <p>We use the information we collect to:</p>
        <ul>
          <li>provide, operate and maintain the Service, and deliver form submissions to you;</li>
          <li>improve, personalise and expand the Service, and develop new tools and features;</li>
          <li>
            communicate with you about your account, updates and, if you subscribed, our newsletter;
          </li>
          <li>find and prevent fraud, spam and abuse of our endpoints.</li>
        </ul>
        <p>
          We never sell personal data and we do not use form submissions for any purpose other than
          delivering them.
        </p>
      </>
    ),
  },
  {
    id: 'log-files',
    title: 'Log files',
    body: (
      <p>
        Like most services, our servers write log files when a page or an endpoint is requested.
        These logs contain the IP address, browser type, date and time, the page requested and the
        referring page. They are used to keep the Service secure and to enforce rate limits, are not
        linked to other personal data and are deleted after 14 days.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and web beacons',
    body: (
      <p>
        Our website uses no tracking cookies. The dashboard keeps your sign-in session in your
        browser's local storage, which is strictly necessary to keep you signed in. The form
        endpoint sets no cookies at all on your visitors' browsers.
      </p>
    ),
  },
  {
    id: 'advertising-partners',
    title: 'Advertising partners',
    body: (
      <p>
        We have no advertising partners and show no advertisements. No third-party ad server or ad
        network receives data about you or your visitors from us. Should this ever change, we will
        update this policy and ask for your consent first.
      </p>
    ),
  },
  {
    id: 'ccpa',
    title: 'CCPA privacy rights (do not sell my personal information)',
    body: (
      <>
        <p>Under the CCPA, among other rights, California consumers have the right to:</p>
        <ul>
          <li>
            request that a business disclose the categories and specific pieces of personal data it
            has collected about them;
          </li>
          <li>
            request that a business delete any personal data about them that it has collected;
          </li>
          <li>
            request that a business that sells personal data does not sell their personal data.
          </li>
        </ul>
        {requests}
      </>
    ),
  },
  {
    id: 'gdpr',
    title: 'GDPR data protection rights',
    body: (
      <>
        <p>Every user is entitled to the following rights:</p>
        <ul>
          <li>
            The right to access: you may request copies of your personal data. We may charge you a
            small fee for this service.
          </li>
          <li>
            The right to rectification: you may ask us to correct information you believe is
            inaccurate or incomplete.
          </li>
          <li>
            The right to erasure: you may ask us to erase your personal data, under certain
            conditions.
          </li>
          <li>
            The right to restrict processing: you may ask us to restrict the processing of your
            data, under certain conditions.
          </li>
          <li>
            The right to object to processing: you may object to our processing of your data, under
            certain conditions.
          </li>
          <li>
            The right to data portability: you may ask us to transfer the data we have collected to
            another organisation, or directly to you, under certain conditions.
          </li>
        </ul>
        {requests}
      </>
    ),
  },
  {
    id: 'children',
    title: "Children's information",
    body: (
      <p>
        Protecting children online is important to us. tinyback does not knowingly collect any
        personally identifiable information from children under the age of 13. If you think that
        your child provided this kind of information on our website, please contact us immediately
        and we will do our best to remove it from our records promptly.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <>
      <PageMeta {...PAGE_META.privacy} />
      <LegalDocument
        title="Privacy Policy"
        effective={TERMS_EFFECTIVE_DATE}
        intro={
          <p>
            At {site.name}, the privacy of our users and of the people who submit their forms is one
            of our main priorities. This Privacy Policy explains what information we collect and how
            we use it.
          </p>
        }
        sections={sections}
      />
    </>
  );
}
