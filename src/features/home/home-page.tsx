// The home page: hero, the copyable form snippet and the marketing sections of the spec.
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';
import { Hero } from './components/hero';
import { SnippetSection } from './components/snippet-section';
import {
  AudienceSection,
  CallToAction,
  StackSection,
  TestimonialsSection,
  UseCasesSection,
  VisionSection,
  WhyUsSection,
} from './components/home-sections';

export function HomePage() {
  return (
    <>
      <PageMeta {...PAGE_META.home} />
      <Hero />
      <SnippetSection />
      <VisionSection />
      <AudienceSection />
      <UseCasesSection />
      <StackSection />
      <WhyUsSection />
      <TestimonialsSection />
      <CallToAction />
    </>
  );
}
