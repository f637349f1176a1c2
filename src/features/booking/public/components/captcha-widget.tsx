// The booking form's CAPTCHA, when the owner turned one on: the provider's script (from the one
// definition in config/captcha.ts), rendered explicitly into this element so it works however
// often the form mounts. The token goes to the parent; a refused send asks for a fresh one
// (tokens are single-use) through `resetKey`.
import { useEffect, useRef, useState } from 'react';
import { Box, Text } from '@chakra-ui/react';
import { CAPTCHA_WIDGETS } from '../../../../config/captcha';
import type { CaptchaProviderName } from '../booking-types';

interface WidgetApi {
  render: (element: HTMLElement, options: Record<string, unknown>) => unknown;
  reset: (id?: unknown) => void;
}

const ONLOAD = '__tinybackCaptchaLoaded';
const loads = new Map<CaptchaProviderName, Promise<WidgetApi>>();

function loadProvider(provider: CaptchaProviderName): Promise<WidgetApi> {
  let load = loads.get(provider);
  if (!load) {
    const widget = CAPTCHA_WIDGETS[provider];
    load = new Promise<WidgetApi>((resolve, reject) => {
      const callback = `${ONLOAD}_${provider}`;
      (window as unknown as Record<string, unknown>)[callback] = () =>
        resolve((window as unknown as Record<string, WidgetApi>)[widget.global]);
      const script = document.createElement('script');
      script.src = `${widget.script}?onload=${callback}&render=explicit`;
      script.async = true;
      script.onerror = () => {
        loads.delete(provider);
        reject(new Error('captcha script failed'));
      };
      document.head.appendChild(script);
    });
    loads.set(provider, load);
  }
  return load;
}

export function CaptchaWidget({
  provider,
  siteKey,
  onToken,
  resetKey,
}: {
  provider: CaptchaProviderName;
  siteKey: string;
  onToken: (token: string | null) => void;
  /** Changes when the last token was used: the widget starts over. */
  resetKey: number;
}) {
  const element = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: WidgetApi; id: unknown } | null>(null);
  const [failed, setFailed] = useState(false);
  const tokenCallback = useRef(onToken);
  useEffect(() => {
    tokenCallback.current = onToken;
  }, [onToken]);

  useEffect(() => {
    let live = true;
    loadProvider(provider).then(
      (api) => {
        if (!live || !element.current || widget.current) return;
        const id = api.render(element.current, {
          sitekey: siteKey,
          callback: (token: string) => tokenCallback.current(token),
          'expired-callback': () => tokenCallback.current(null),
          'error-callback': () => tokenCallback.current(null),
        });
        widget.current = { api, id };
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [provider, siteKey]);

  useEffect(() => {
    if (resetKey === 0 || !widget.current) return;
    tokenCallback.current(null);
    widget.current.api.reset(widget.current.id);
  }, [resetKey]);

  return (
    <Box>
      <div ref={element} />
      {failed && (
        <Text role="alert" textStyle="sm" color="fg.error">
          The spam check ({CAPTCHA_WIDGETS[provider].label}) could not load. Check your connection
          or turn off a blocker for this page, then reload it.
        </Text>
      )}
    </Box>
  );
}
