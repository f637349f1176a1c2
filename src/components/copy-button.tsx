// A button that copies text to the clipboard and confirms with 'Copied' for a moment.
import { useEffect, useRef, useState } from 'react';
import { Button, type ButtonProps } from '@chakra-ui/react';
import { LuCheck, LuCopy } from 'react-icons/lu';
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
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): keep offering 'Copy'
      // rather than claiming a copy that did not happen.
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRM_MS);
  }

  return (
    <Button
      size="sm"
      variant="surface"
      aria-label={accessibleLabel ? `${copied ? 'Copied' : label}: ${accessibleLabel}` : undefined}
      {...buttonProps}
      onClick={() => void copy()}
    >
      {copied ? <LuCheck aria-hidden /> : <LuCopy aria-hidden />}
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </Button>
  );
}
