// A button that copies text to the clipboard and confirms with 'Copied' for a moment.
import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from '@chakra-ui/react';
import { CheckIcon, CopyIcon } from 'lucide-react';
import { COPY_CONFIRM_MS } from '../config/site';

export interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** The text put on the clipboard. */
  text: string;
  /** Visible label before copying; 'Copy' unless told. */
  label?: string;
  /** Accessible name when the visible label alone is ambiguous (several copy buttons on a page). */
  accessibleLabel?: string;
}

export function CopyButton({
  text,
  label = 'Copy',
  accessibleLabel,
  ...buttonProps
}: CopyButtonProps) {
  // Counts copies while 'Copied' shows (0: not showing). Each copy changes it, so the effect
  // restarts the confirmation timer; a copy that resolves after unmount starts no timer at all.
  const [confirmation, setConfirmation] = useState(0);
  const copied = confirmation > 0;

  useEffect(() => {
    if (!confirmation) return;
    const timer = setTimeout(() => setConfirmation(0), COPY_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [confirmation]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): keep offering 'Copy'
      // rather than claiming a copy that did not happen.
      return;
    }
    setConfirmation((n) => n + 1);
  }

  return (
    <Button
      size="sm"
      variant="surface"
      aria-label={accessibleLabel ? `${copied ? 'Copied' : label}: ${accessibleLabel}` : undefined}
      {...buttonProps}
      onClick={() => void copy()}
    >
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </Button>
  );
}
