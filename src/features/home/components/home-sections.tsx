// The home page's marketing sections after the snippet: vision, audiences, use cases, supported
// stacks, why tinyback, testimonials and the closing call to action.
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Button,
  Card,
  Container,
  Flex,
  Heading,
  HStack,
  SimpleGrid,
  Stack,
  Text,
  chakra,
  useSlotRecipe,
} from '@chakra-ui/react';
import {
  BriefcaseIcon,
  BuildingComplexIcon,
  CalendarIcon,
  CodeIcon,
  DatabaseBackupIcon,
  EyeOffIcon,
  GlobeIcon,
  GraduationCapIcon,
  LightbulbIcon,
  LockIcon,
  MailIcon,
  MessageSquareIcon,
  RocketIcon,
  ShieldCheckIcon,
  ShoppingCartIcon,
  UsersIcon,
} from 'lucide-react';
import { BrandIcon } from '../../../components/brand-icon';
import { FeatureCard, type Feature } from '../../../components/feature-card';
import { Section } from '../../../components/section';
import type { BrandIconName } from '../../../config/brand-icons';
import { paths } from '../../../config/paths';

export function VisionSection() {
  return (
    <Section id="vision" eyebrow="Our vision" title="Small tools that do one job well">
      <Text
        fontSize={{ base: 'lg', md: 'xl' }}
        color="fg.muted"
        textAlign="center"
        maxW="3xl"
        mx="auto"
      >
        Static sites are fast, cheap and secure, until you need a contact form. tinyback fills that
        gap with small, focused backend tools you can use in minutes and host yourself on Supabase
        when you outgrow us. Your data stays yours: no trackers, no ad networks, no lock-in.
      </Text>
    </Section>
  );
}

const audiences: Feature[] = [
  {
    icon: CodeIcon,
    title: 'Freelancers',
    text: 'Ship client sites with working forms without maintaining a server for each one.',
  },
  {
    icon: LightbulbIcon,
    title: 'Indie hackers',
    text: 'Collect feedback and waitlist sign-ups on launch day, not after a week of backend work.',
  },
  {
    icon: BriefcaseIcon,
    title: 'Agencies',
    text: 'One dashboard for every client form, with each form sending to the right inbox.',
  },
  {
    icon: UsersIcon,
    title: 'Teams',
    text: 'Share forms and submissions with your team instead of forwarding e-mails around.',
  },
  {
    icon: RocketIcon,
    title: 'Founders & startups',
    text: 'Validate ideas with real forms on a landing page and keep every lead in one place.',
  },
];

export function AudienceSection() {
  return (
    <Section
      id="audience"
      eyebrow="Who it's for"
      title="Built for people who ship websites"
      bg="bg.subtle"
    >
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 5 }} gap="5">
        {audiences.map((audience) => (
          <FeatureCard key={audience.title} {...audience} />
        ))}
      </SimpleGrid>
    </Section>
  );
}

const useCases: Feature[] = [
  {
    icon: MailIcon,
    title: 'Contact forms',
    text: 'Messages from your site, delivered to your inbox with a reply-to set to the sender.',
  },
  {
    icon: RocketIcon,
    title: 'Waitlists & launches',
    text: 'Collect e-mail addresses before you launch and export them when you are ready.',
  },
  {
    icon: MessageSquareIcon,
    title: 'Feedback & surveys',
    text: 'Any field you add to your form is stored and shown, no schema to define first.',
  },
  {
    icon: CalendarIcon,
    title: 'Quote & booking requests',
    text: 'Let visitors ask for a quote or an appointment and answer from your inbox.',
  },
  {
    icon: ShoppingCartIcon,
    title: 'Order enquiries',
    text: 'Small shops take orders and questions without a full e-commerce stack.',
  },
  {
    icon: GraduationCapIcon,
    title: 'Event sign-ups',
    text: 'Workshops, meetups and courses: registrations land in one dashboard.',
  },
];

export function UseCasesSection() {
  return (
    <Section id="use-cases" eyebrow="Use cases" title="One endpoint, many kinds of forms">
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="5">
        {useCases.map((useCase) => (
          <FeatureCard key={useCase.title} {...useCase} />
        ))}
      </SimpleGrid>
    </Section>
  );
}

const stacks: { name: string; icon: BrandIconName }[] = [
  { name: 'HTML', icon: 'html5' },
  { name: 'React', icon: 'react' },
  { name: 'Next.js', icon: 'nextjs' },
  { name: 'Vue', icon: 'vue' },
  { name: 'Svelte', icon: 'svelte' },
  { name: 'Astro', icon: 'astro' },
  { name: 'Gatsby', icon: 'gatsby' },
  { name: 'Hugo', icon: 'hugo' },
  { name: 'WordPress', icon: 'wordpress' },
  { name: 'Webflow', icon: 'webflow' },
];

export function StackSection() {
  return (
    <Section
      id="stacks"
      eyebrow="Works everywhere"
      title="Bring your own stack"
      intro="If it can render a <form>, it works with tinyback."
      bg="bg.subtle"
    >
      <Flex as="ul" wrap="wrap" justify="center" gap={{ base: '6', md: '10' }} listStyle="none">
        {stacks.map(({ name, icon }) => (
          <Stack as="li" key={name} align="center" gap="2" color="fg.muted" minW="16">
            <BrandIcon name={icon} boxSize={{ base: '8', md: '10' }} />
            <Text fontSize="sm" fontWeight="medium">
              {name}
            </Text>
          </Stack>
        ))}
      </Flex>
    </Section>
  );
}

const reasons: Feature[] = [
  {
    icon: ShieldCheckIcon,
    title: 'Privacy-first',
    text: 'We never track your visitors. Submissions are used to deliver them to you, nothing else.',
  },
  {
    icon: GlobeIcon,
    title: 'EU-hosted & GDPR-friendly',
    text: 'Data is stored in the EU, and you can export or delete it at any time.',
  },
  {
    icon: EyeOffIcon,
    title: 'No tracking',
    text: 'No cookies, no pixels, no fingerprinting on the endpoint or in the snippet.',
  },
  {
    icon: DatabaseBackupIcon,
    title: 'Daily backups',
    text: 'Your forms and submissions are backed up every day.',
  },
  {
    icon: LockIcon,
    title: 'Spam defence built in',
    text: 'Honeypot fields, rate limits per sender and allowed origins keep bots out.',
  },
  {
    icon: BuildingComplexIcon,
    title: 'Open source & self-hostable',
    text: 'Run the whole thing on your own Supabase project whenever you want.',
  },
];

export function WhyUsSection() {
  return (
    <Section id="why-us" eyebrow="Why tinyback" title="Simple for you, respectful to your visitors">
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="5">
        {reasons.map((reason) => (
          <FeatureCard key={reason.title} {...reason} />
        ))}
      </SimpleGrid>
    </Section>
  );
}

const testimonials = [
  {
    quote:
      'I moved eleven client sites to tinyback in an afternoon. Forms just work and I stopped babysitting a PHP mailer.',
    name: 'Lena Hoffmann',
    role: 'Freelance web developer, Leipzig',
  },
  {
    quote:
      'Our launch page collected 2,000 sign-ups in a weekend. Setting up the form took five minutes.',
    name: 'Marco Rossi',
    role: 'Founder, Trailbase',
  },
  {
    quote:
      'Being able to self-host on our own Supabase project was the deciding factor for our compliance team.',
    name: 'Sofia Lindqvist',
    role: 'CTO, Nordlys Studio',
  },
];

/** "Ada Lovelace" → "AL", as Chakra's Avatar abbreviates a name. */
export function initials(name: string): string {
  const names = name.trim().split(' ');
  const first = names[0] ?? '';
  const last = names.length > 1 ? names[names.length - 1] : '';
  return first && last ? `${first.charAt(0)}${last.charAt(0)}` : first.charAt(0);
}

/**
 * A testimonial's initials in Chakra's Avatar look (its recipe, size md). The Avatar component
 * itself brings a state machine for loading photos, which the home page has none of: kept out of
 * the JavaScript the home page needs.
 */
function InitialsAvatar({ name }: { name: string }) {
  const styles = useSlotRecipe({ key: 'avatar' })({ size: 'md' });
  return (
    <chakra.div css={styles.root} colorPalette="teal">
      <chakra.span css={styles.fallback}>{initials(name)}</chakra.span>
    </chakra.div>
  );
}

export function TestimonialsSection() {
  return (
    <Section
      id="testimonials"
      eyebrow="Testimonials"
      title="Loved by people who ship"
      bg="bg.subtle"
    >
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="5">
        {testimonials.map((testimonial) => (
          <Card.Root key={testimonial.name} as="figure" variant="elevated" h="full">
            <Card.Body gap="5" justifyContent="space-between">
              <Text as="blockquote" fontSize="lg">
                “{testimonial.quote}”
              </Text>
              <HStack as="figcaption" gap="3">
                <InitialsAvatar name={testimonial.name} />
                <Box>
                  <Text fontWeight="semibold">{testimonial.name}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    {testimonial.role}
                  </Text>
                </Box>
              </HStack>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
    </Section>
  );
}

export function CallToAction() {
  return (
    <Box as="section" aria-labelledby="cta-title" py={{ base: '12', md: '20' }}>
      <Container maxW="4xl">
        <Stack
          align="center"
          textAlign="center"
          gap="5"
          rounded="2xl"
          px={{ base: '6', md: '12' }}
          py={{ base: '10', md: '14' }}
          bgGradient="to-br"
          gradientFrom="teal.700"
          gradientTo="teal.900"
          color="white"
        >
          <Heading as="h2" id="cta-title" size={{ base: '2xl', md: '4xl' }}>
            Your next form is five minutes away
          </Heading>
          <Text fontSize="lg" color="teal.100">
            Start on the free tier, upgrade when your forms get busy.
          </Text>
          <Button asChild size="lg" bg="white" color="teal.800" _hover={{ bg: 'teal.50' }}>
            <RouterLink to={paths.register}>Try It Free – No Credit Card Needed</RouterLink>
          </Button>
        </Stack>
      </Container>
    </Box>
  );
}
