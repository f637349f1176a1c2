// The custom web development page: the service, how a project runs, and a project enquiry form
// (a tinyback form of our own, not a mailto: link).
import { Box, Button, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import {
  DatabaseIcon,
  GaugeIcon,
  LayoutTemplateIcon,
  MailIcon,
  PaletteIcon,
  PlugIcon,
} from 'lucide-react';
import { CheckList } from '../../components/check-list';
import { FeatureCard, type Feature } from '../../components/feature-card';
import { PageHero } from '../../components/page-hero';
import { Section } from '../../components/section';
import { ProjectEnquiryForm } from './components/project-enquiry-form';
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';

const services: Feature[] = [
  {
    icon: LayoutTemplateIcon,
    title: 'Marketing sites',
    text: 'Fast static sites and landing pages with forms that just work, built to rank and convert.',
  },
  {
    icon: DatabaseIcon,
    title: 'Web apps on Supabase',
    text: 'Dashboards, portals and internal tools with auth, row-level security and realtime updates.',
  },
  {
    icon: PlugIcon,
    title: 'Integrations',
    text: 'Connect your forms and data to CRMs, spreadsheets, payment providers and your own APIs.',
  },
  {
    icon: PaletteIcon,
    title: 'Design systems',
    text: 'Accessible, consistent UI components your team can keep building with.',
  },
  {
    icon: GaugeIcon,
    title: 'Performance & accessibility',
    text: 'Audits and fixes for Core Web Vitals and WCAG 2.2 AA.',
  },
  {
    icon: MailIcon,
    title: 'Migrations',
    text: 'Move forms and submissions from other form services or a legacy mailer script to tinyback.',
  },
];

const steps = [
  {
    title: 'Discovery call',
    text: 'Thirty minutes to understand your goals, audience and constraints. Free of charge.',
  },
  {
    title: 'Fixed proposal',
    text: 'A written scope, timeline and fixed price, so there are no surprises on the invoice.',
  },
  {
    title: 'Build in the open',
    text: 'Weekly previews on a staging link; you give feedback while it is still cheap to change.',
  },
  {
    title: 'Launch & handover',
    text: 'We launch, document everything and hand over the code. It is yours, no lock-in.',
  },
];

/** The enquiry form's section, the target of both calls to action. */
const ENQUIRY_SECTION = 'project';

export function CustomPage() {
  return (
    <>
      <PageMeta {...PAGE_META.custom} />
      <PageHero
        eyebrow="Custom Web"
        title="Custom web development"
        lead="The team behind tinyback builds websites and web apps for freelancers, startups and companies, fast, accessible and privacy-friendly by default."
      >
        <Button asChild colorPalette="teal" size="lg">
          <a href={`#${ENQUIRY_SECTION}`}>Tell us about your project</a>
        </Button>
      </PageHero>
      <Section id="services" title="What we build">
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="5">
          {services.map((service) => (
            <FeatureCard key={service.title} {...service} />
          ))}
        </SimpleGrid>
      </Section>
      <Section id="process" title="How a project runs" bg="bg.subtle">
        <SimpleGrid as="ol" columns={{ base: 1, md: 2, lg: 4 }} gap="5" listStyle="none">
          {steps.map((step, index) => (
            <Box as="li" key={step.title} bg="bg" rounded="xl" borderWidth="1px" p="6">
              <Text color="teal.700" fontWeight="800" fontSize="2xl" aria-hidden>
                {String(index + 1).padStart(2, '0')}
              </Text>
              <Heading as="h3" size="md" mt="2">
                {step.title}
              </Heading>
              <Text color="fg.muted" mt="2">
                {step.text}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      </Section>
      <Section id="why" title="Why work with us">
        <Stack maxW="2xl" mx="auto" gap="6">
          <CheckList
            items={[
              'We run our own product on the stack we recommend to you.',
              'EU-based, GDPR-aware, no trackers unless you ask for them.',
              'Accessible by default: keyboard, screen readers and 360 px phones are tested.',
              'You own the code and the hosting accounts from day one.',
            ]}
            gap="3"
            fontSize="lg"
            align="start"
          />
          <Button asChild colorPalette="teal" size="lg" alignSelf="center">
            <a href={`#${ENQUIRY_SECTION}`}>Start a project</a>
          </Button>
        </Stack>
      </Section>
      <Section
        id={ENQUIRY_SECTION}
        title="Tell us about your project"
        intro="A few lines are enough: what you are building, for whom and by when. We answer with questions or a time for a free discovery call."
        bg="bg.subtle"
        scrollMarginTop="64px"
      >
        <Box
          maxW="3xl"
          mx="auto"
          bg="bg"
          rounded="2xl"
          borderWidth="1px"
          p={{ base: '5', md: '8' }}
        >
          <ProjectEnquiryForm />
        </Box>
      </Section>
    </>
  );
}
