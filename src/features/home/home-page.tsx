// The home page: hero, the copyable form snippet and the marketing sections of the spec.
import { useDocumentTitle } from '../../components/use-document-title';
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
  useDocumentTitle();
  return (
    <>
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
