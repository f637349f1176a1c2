// The docs' analytics section: the tracker's snippet, custom events, the script tag's options,
// single-page apps, what is not counted, how to serve the file, and a data-processing statement
// an owner can link from a privacy page (/docs#analytics-data).
import {
  CUSTOM_EVENT_LIMITS,
  SITE_ID_PLACEHOLDER,
  TRACKER_CACHE_CONTROL,
  TRACKER_EVENTS,
  TRACKER_FILE,
  TRACKER_GZIP_BUDGET_BYTES,
  TRACKER_OPTIONS,
  TRACKER_QUEUE_SNIPPET,
  trackerSnippet,
} from '../../../config/analytics-tracker';
import { env } from '../../../config/env';
import { site } from '../../../config/site';
import { ANALYTICS_SCALE } from '../analytics-scale-facts';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P, SubHeading } from './docs-ui';

/** The statement's anchor, for owners' privacy pages: /docs#analytics-data. */
export const ANALYTICS_DATA_ID = 'analytics-data';

const CUSTOM_EVENTS_EXAMPLE = `${TRACKER_QUEUE_SNIPPET}

<button onclick="tinyback('signup')">Sign up</button>

<script>
  // With props: at most ${CUSTOM_EVENT_LIMITS.propsMax}, each a string of up to ${CUSTOM_EVENT_LIMITS.propValueMax} characters
  tinyback('download', { file: 'price-list.pdf' });
</script>`;

const HEADERS_EXAMPLE = `/${TRACKER_FILE}
  Cache-Control: ${TRACKER_CACHE_CONTROL}`;

export function Analytics() {
  const snippet = trackerSnippet({
    siteUrl: site.url,
    siteId: SITE_ID_PLACEHOLDER,
    supabaseUrl: env.supabaseUrl,
  });
  return (
    <DocSection {...docSection('analytics')}>
      <P>
        Privacy-friendly analytics for your website: page views, where visitors come from, which
        pages they read, on which devices, and the events you choose to count — without cookies,
        without storing IP addresses, and without following anyone from one site or one day to the
        next. Add your site under Analytics in the dashboard; it gives you this snippet with your
        site&rsquo;s id. Paste it into the <C>{'<head>'}</C> of every page:
      </P>
      <CodeSample label="Analytics snippet" code={snippet} />
      <P>
        The script is at most {TRACKER_GZIP_BUDGET_BYTES / 1024} KB gzipped and <C>defer</C> keeps
        it from holding up your page. It sends a page view when the page loads, and each event is
        one small request to your Supabase project (<C>data-api</C>), handed to the browser so that
        leaving the page loses nothing. Events from pages whose address is not one of your
        site&rsquo;s domains are refused.
      </P>

      <SubHeading>Custom events</SubHeading>
      <P>
        Count what matters to you with <C>{"tinyback('signup')"}</C>: a name of 1 to{' '}
        {CUSTOM_EVENT_LIMITS.nameMax} characters ({CUSTOM_EVENT_LIMITS.nameCharacters}) and,
        optionally, up to {CUSTOM_EVENT_LIMITS.propsMax} props, each named in at most{' '}
        {CUSTOM_EVENT_LIMITS.propKeyMax} characters with a string value of at most{' '}
        {CUSTOM_EVENT_LIMITS.propValueMax}; an event outside these limits is refused. Because the
        snippet is deferred, a call made before it has loaded needs the one-line stand-in below,
        placed before your own scripts: it keeps the calls, and the tracker sends them once it runs.
        Never put personal data (names, e-mail addresses) into an event or its props.
      </P>
      <CodeSample label="Custom events" code={CUSTOM_EVENTS_EXAMPLE} />

      <SubHeading>Options</SubHeading>
      <P>
        Add these attributes to the script tag to count more. They are off by default, so the
        default stays small and counts only what you see.
      </P>
      <DataTable
        caption="Script tag attributes"
        head={['Attribute', 'What it does']}
        rows={[
          ['`data-site`', 'Your site’s id, from the dashboard (required).'],
          [
            '`data-api`',
            'Where events go: your project’s `analytics/collect` function (required).',
          ],
          [
            `\`${TRACKER_OPTIONS.outbound}\``,
            `Counts clicks (and middle clicks) on links to other websites as \`${TRACKER_EVENTS.outbound}\` events, with the link’s address as the \`url\` prop.`,
          ],
          [
            `\`${TRACKER_OPTIONS.forms}\``,
            `Counts form submits as \`${TRACKER_EVENTS.form}\` events, with the form’s \`id\` (else its \`name\`) as the \`form\` prop. Never the fields’ contents.`,
          ],
          [
            `\`${TRACKER_OPTIONS.local}\``,
            'Counts visits from `localhost`, `127.0.0.1` and `file:` pages and from automated browsers too, which are otherwise skipped. For testing the snippet; leave it off your live site.',
          ],
        ]}
      />

      <SubHeading>Single-page apps</SubHeading>
      <P>
        Apps that change pages with the History API (React Router, Vue Router, Next.js, SvelteKit
        and most others) need nothing more: a <C>pushState</C> or <C>replaceState</C> to a new path,
        and going back or forward, each count as a page view. A change of the query string or the
        hash alone is the same page, so routers that keep the page in the hash (<C>#/about</C>) are
        counted as one page. A page the browser prerenders is counted only when it is shown, and a
        page restored from the back/forward cache counts again.
      </P>

      <SubHeading>Sharing your stats</SubHeading>
      <P>
        Under Share in the dashboard, a site gets a public link (<C>/share/analytics/…</C>) that
        shows its stats to anyone who has it, without an account: the headline numbers, the chart,
        the top lists, filters and visitors now, but not the snippet or the site&rsquo;s settings.
        The link is long and random, and search engines are asked not to index it. Replace it with a
        new one, or revoke it, at any time: the old link stops working at once and shows that it no
        longer works. Each link may be read a limited number of times a minute, for at most a year
        at a time.
      </P>

      <SubHeading>Serving the script</SubHeading>
      <P>
        The file keeps its name, <C>{`/${TRACKER_FILE}`}</C>, so a pasted snippet never needs
        changing. If you host the site yourself, serve it with{' '}
        <C>{`Cache-Control: ${TRACKER_CACHE_CONTROL}`}</C>: browsers keep it a day, then fetch an
        update in the background while using the copy they have. Do not cache it as immutable: a
        year-long cache would keep an old tracker running after an update. On Netlify or Cloudflare
        Pages, a <C>_headers</C> file in the published folder does it:
      </P>
      <CodeSample label="public/_headers" code={HEADERS_EXAMPLE} />
      <Note>
        A Content-Security-Policy on your site must allow the script and its requests: add this site
        to <C>script-src</C> and your Supabase URL to <C>connect-src</C>.
      </Note>

      <SubHeading>Forms and conversion</SubHeading>
      <P>
        On a page with the tracker, a tinyback form (the HTML or the JavaScript embed) also tells
        the form endpoint where it was sent from: the tracker adds three hidden fields,{' '}
        <C>_tb_site</C>, <C>_tb_page</C> (the page&rsquo;s path) and <C>_tb_ref</C> (the host of the
        website that referred the visit, empty for a direct one or for a page reached from your own
        site). They are never shown as the message&rsquo;s fields: the inbox shows a line such as
        &ldquo;Page /contact · From news.example&rdquo;, the CSV export has Page and Referrer
        columns, and each form&rsquo;s card shows the page views of the pages its messages came from
        over the last 30 days, its messages from them and the conversion rate. A site that is not
        yours is ignored, and values the tracker would not send are dropped without refusing the
        message.
      </P>

      <SubHeading>How it scales</SubHeading>
      <P>
        Analytics runs in the deployment&rsquo;s own Supabase Postgres, with nothing else to
        operate. On a quiet 2-core machine, one site with {ANALYTICS_SCALE.events} events over a
        year answers the default 30-day view in {ANALYTICS_SCALE.defaultViewDb[0]} ms at the median
        and {ANALYTICS_SCALE.defaultViewDb[1]} ms at the 95th percentile inside Postgres (
        {ANALYTICS_SCALE.defaultViewApi[0]} and {ANALYTICS_SCALE.defaultViewApi[1]} ms through the
        API), and the endpoint stores {ANALYTICS_SCALE.ingestion.endpoint} events a second from{' '}
        {ANALYTICS_SCALE.ingestion.clients} clients, where plain inserts into the same table reach{' '}
        {ANALYTICS_SCALE.ingestion.inserts} (<C>npm run bench:analytics</C>; every figure in{' '}
        <C>docs/PERFORMANCE.md</C>). What keeps it there:
      </P>
      <Bullets>
        <Item>
          each closed UTC day is rolled up per site into rows for the day, its hours and each
          breakdown value (about 700 for a busy site), kept for the site&rsquo;s life, and today is
          rolled up until a few minutes ago: a view without filters reads those rows and only the
          last minutes&rsquo; raw events;
        </Item>
        <Item>
          filtered views read raw events of the range; see <C>docs/PERFORMANCE.md</C>;
        </Item>
        <Item>
          raw events are deleted after the site&rsquo;s retention (30 days to 3 years), the rollups
          stay;
        </Item>
        <Item>
          an account stores at most {ANALYTICS_SCALE.accountEventsPerDay} events a UTC day over all
          its sites; later events are refused until midnight UTC, and the dashboard says so.
        </Item>
      </Bullets>
      <P>
        A larger site would move its events: on bigger compute, into monthly range partitions of the
        events table, so that retention drops a month&rsquo;s partition instead of deleting rows and
        a range reads only its months; for hundreds of millions of events, into an analytical store
        such as ClickHouse, which Supabase&rsquo;s Wrappers (a foreign data wrapper) let Postgres
        query, with the dashboard&rsquo;s stats unchanged.
      </P>

      <SubHeading id={ANALYTICS_DATA_ID}>What is collected, and what is not</SubHeading>
      <P>
        You can link this statement from your privacy page. For each page view or event, tinyback
        keeps:
      </P>
      <Bullets>
        <Item>
          the page&rsquo;s path, and the UTM tags of its address (<C>utm_source</C>,{' '}
          <C>utm_medium</C>, <C>utm_campaign</C>); its other query parameters are not kept, and the
          part after <C>#</C> never leaves the browser;
        </Item>
        <Item>the host of the referring website, not its full address;</Item>
        <Item>a screen class worked out from the screen&rsquo;s width;</Item>
        <Item>
          the browser, operating system and device type, read from the user agent, which is not
          kept;
        </Item>
        <Item>
          the country, derived from the time zone the browser reports, not from an IP address;
        </Item>
        <Item>the event&rsquo;s name and props, which the website chooses;</Item>
        <Item>
          with a message sent through a tinyback form on a page with the tracker: the site, the
          page&rsquo;s path and the referring host, kept with the message (no more than the page
          view already holds);
        </Item>
        <Item>
          a visitor id: a hash of a salt, the site, the IP address and the user agent. The salt is
          replaced every day and the old one deleted after a day, so the id cannot be recomputed
          later: the same person is a new visitor the next day, and a different one on another site.
        </Item>
      </Bullets>
      <P>What is not collected or kept:</P>
      <Bullets>
        <Item>
          no cookies, and nothing stored on or read from the visitor&rsquo;s device (no local
          storage, session storage or similar);
        </Item>
        <Item>no IP address, and no user-agent string, in any table;</Item>
        <Item>
          no tracking across websites or across days, no fingerprinting beyond the daily hash, and
          no profile of anyone;
        </Item>
        <Item>no names, e-mail addresses or the contents of forms;</Item>
        <Item>
          nothing passed to advertisers or other third parties: events are stored in the Supabase
          project the deployment runs on — your own, if you host tinyback yourself.
        </Item>
      </Bullets>
      <P>
        Visits from automated browsers, known bots and your own machine (<C>localhost</C>) are not
        counted.
      </P>
    </DocSection>
  );
}
