// The blog list's hero: the page heading, what the blog is about, and the newsletter sign-up.
import type { ReactNode } from 'react';
import { PageHero } from '../../../components/page-hero';

export function BlogHero({ newsletter }: { newsletter?: ReactNode }) {
  return (
    <PageHero
      align="start"
      eyebrow="Blog"
      title="Notes on forms, spam and shipping small sites"
      lead="Product updates, step-by-step guides and quick tips for running tinyback — the open-source form backend you can host on your own Supabase project."
    >
      {newsletter}
    </PageHero>
  );
}
