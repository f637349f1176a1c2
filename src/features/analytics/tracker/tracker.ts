// The analytics tracker site owners embed, built by scripts/write-tracker.ts into public/tb.js
// (src/config/analytics-tracker.ts has the snippet and the size budget it is held to). It runs on
// other people's pages, so it is plain DOM with no imports, adds one global (`tinyback`) and
// keeps nothing on the visitor's device: no cookie, no storage of any kind. Telling visits apart
// is the server's job, from a hash whose salt changes every day.
//
// Each event is one POST of a JSON string sent as text/plain, a CORS "simple" request: no
// preflight, so one request per event. sendBeacon hands it to the browser, which still delivers it
// when the page is being left (a click on an outbound link, a form posting to another page); fetch
// with keepalive does the same where there is no sendBeacon.

type Props = Record<string, string>;

/** `window.tinyback`; before the tracker runs, the page's stand-in keeps its calls in `q`. */
interface Tinyback {
  (name: string, props?: Props): void;
  q?: ArrayLike<unknown>[];
}

(() => {
  const w = window as Window & { tinyback?: Tinyback };
  const d = document;
  const loc = location;
  // A deferred script is current while it runs; the attribute finds it should it be loaded otherwise.
  const script = (d.currentScript || d.querySelector('script[data-api]')) as HTMLElement | null;
  const options: DOMStringMap = script ? script.dataset : {};
  const api = options.api;
  if (!api) return;
  const on = (name: string) => options[name] != null;

  // Automated browsers and the owner's own machine are not visitors, unless data-local says so
  // (testing the snippet locally, or in a browser test, which always runs as an automated one).
  const ignored =
    !on('local') &&
    (navigator.webdriver ||
      loc.protocol == 'file:' ||
      /^(localhost|127\.0\.0\.1|\[::1\])$/.test(loc.hostname));
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const send = (name: string, props?: Props) => {
    if (ignored) return;
    // The part after # never leaves the browser (sign-in links carry tokens there), and the
    // addresses are cut to what the endpoint reads (the path and UTM tags, the referrer's host),
    // so a page with a long address still fits the endpoint's 2 KB body.
    const body = JSON.stringify({
      s: options.site,
      n: name,
      u: loc.href.split('#')[0].slice(0, 800),
      r: d.referrer.slice(0, 200),
      w: screen.width,
      z: timeZone,
      p: props,
    });
    // sendBeacon answers false when the browser will not queue the request: try fetch then.
    if (!(navigator.sendBeacon && navigator.sendBeacon(api, body)))
      fetch(api, { method: 'POST', body, keepalive: true }).catch(() => {});
  };

  // A page view is a new path: a single-page app changing only its query or hash, or replacing
  // its state on the same page, has not shown another page.
  let path: string | undefined;
  const view = (again?: unknown) => {
    if (again || loc.pathname != path) {
      path = loc.pathname;
      send('pageview');
    }
  };

  const start = () => {
    const queued = (w.tinyback && w.tinyback.q) || [];
    w.tinyback = send;
    view();
    for (const call of queued) send(call[0] as string, call[1] as Props | undefined);

    const history_ = history;
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history_[method];
      history_[method] = function (this: History, ...args: Parameters<History['pushState']>) {
        original.apply(this, args);
        view();
      };
    }
    w.addEventListener('popstate', () => view());
    // A page shown again from the back/forward cache is a view the load event never announces.
    w.addEventListener('pageshow', (event) => {
      if (event.persisted) view(1);
    });

    if (on('outbound')) {
      const click = (event: MouseEvent) => {
        const target = event.target as Element | null;
        const link = target && target.closest && (target.closest('a[href]') as HTMLAnchorElement);
        // A middle click opens the link too; other buttons' auxclicks do not.
        if (
          link &&
          link.host != loc.host &&
          /^https?:$/.test(link.protocol) &&
          (event.type == 'click' || event.button == 1)
        )
          send('outbound', { url: link.href.slice(0, 200) });
      };
      // Capturing, so a page's own handler that stops the event does not hide the click.
      d.addEventListener('click', click, true);
      d.addEventListener('auxclick', click, true);
    }

    // One capturing listener: it runs before the page's own (the embed's script reads the form in
    // its submit handler, the browser after the event).
    d.addEventListener(
      'submit',
      (event) => {
        const form = event.target as HTMLFormElement;
        // Attributes, not properties: a field named "id", "name" or "action" would shadow them.
        if (on('forms')) {
          const name = form.getAttribute('id') || form.getAttribute('name');
          send('form', name ? { form: name.slice(0, 200) } : undefined);
        }
        // A form posting to this deployment's form endpoint says where the message was written:
        // the site, the page's path and the visit's referrer host (none for a direct visit or a
        // page of the same site), in hidden fields added once and refreshed on each submit.
        const referrer = d.referrer && new URL(d.referrer).hostname;
        if (
          !ignored &&
          !new URL(form.getAttribute('action') as string, d.baseURI).href.indexOf(
            new URL('../forms/', api).href,
          )
        )
          for (const [key, value] of [
            ['site', options.site],
            ['page', loc.pathname],
            ['ref', referrer == loc.hostname ? '' : referrer],
          ]) {
            let input = form.querySelector('[name=_tb_' + key + ']') as HTMLInputElement | null;
            if (!input) {
              input = form.appendChild(d.createElement('input'));
              input.type = 'hidden';
              input.name = '_tb_' + key;
            }
            input.value = value || '';
          }
      },
      true,
    );
  };

  // A page the browser prerenders may never be seen: count it when it is shown.
  if ((d as Document & { prerendering?: boolean }).prerendering)
    d.addEventListener('prerenderingchange', start, { once: true });
  else start();
})();
