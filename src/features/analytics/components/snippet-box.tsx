// A site's snippet, ready to copy, with where it goes.
import { Text } from '@chakra-ui/react';
import { CodeBlock } from '../../../components/code-block';
import { siteSnippet } from '../site-snippet';

export function SnippetBox({ siteId, siteName }: { siteId: string; siteName: string }) {
  return (
    <div>
      <Text fontSize="sm" color="fg.muted">
        Paste this line into every page of {siteName}, before <code>&lt;/head&gt;</code>.
      </Text>
      <CodeBlock label="Tracking snippet" text={siteSnippet(siteId)} />
    </div>
  );
}
