// The tools page: what each tinyback tool does and whether it is available yet.
import type { LucideIcon } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Flex,
  Heading,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import {
  CalendarIcon,
  ChartBarIcon,
  CodeIcon,
  InboxIcon,
  MegaphoneIcon,
  ReplyIcon,
  UploadIcon,
  WebhookIcon,
} from 'lucide-react';
import { CheckList } from '../../components/check-list';
import { IconTile } from '../../components/icon-tile';
import { PageHero } from '../../components/page-hero';
import { Section } from '../../components/section';
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';
import { paths } from '../../config/paths';
import { MARKETING_FIGURES } from '../../config/site';

type Availability = 'Available' | 'Announced for August' | 'Coming soon' | 'Planned';

interface Tool {
  id: string;
  icon: LucideIcon;
  name: string;
  availability: Availability;
  summary: string;
  points: string[];
  link?: { label: string; to: string };
}

const tools: Tool[] = [
  {
    id: 'form-backend',
    icon: InboxIcon,
    name: 'Form backend',
    availability: 'Available',
    summary:
      'Point any HTML form at your tinyback endpoint. Every submission is stored, shown in your dashboard and forwarded to the e-mail address you choose.',
    points: [
      'Works with plain HTML, no JavaScript required',
      'JSON responses for AJAX forms',
      'Redirects, subject lines and reply-to via special fields',
      'Honeypot, rate limits and allowed origins against spam',
    ],
    link: { label: 'Read the docs', to: paths.docs },
  },
  {
    id: 'analytics',
    icon: ChartBarIcon,
    name: 'Privacy-friendly analytics',
    availability: 'Coming soon',
    summary:
      'Page views, referrers and form conversions without cookies or personal data, so you need no consent banner for it.',
    points: [
      'No cookies, no fingerprinting',
      'Form conversion rates per page',
      'Data stays in the EU',
    ],
  },
  {
    id: 'newsletter',
    icon: MegaphoneIcon,
    name: 'Newsletter',
    availability: 'Announced for August',
    summary:
      'Collect subscribers with the same form endpoint and send simple, good-looking updates with double opt-in.',
    points: [
      'Double opt-in and one-click unsubscribe',
      'Import existing subscribers',
      'Plain and lightweight e-mails',
    ],
  },
  {
    id: 'booking',
    icon: CalendarIcon,
    name: 'Booking',
    availability: 'Coming soon',
    summary:
      'Share a booking link, let visitors pick a free slot and get the appointment in your calendar.',
    points: [
      'Public booking links',
      'Availability rules and buffers',
      'Confirmation e-mails for both sides',
    ],
  },
  {
    id: 'file-upload',
    icon: UploadIcon,
    name: 'File upload',
    availability: 'Planned',
    summary:
      'Accept attachments such as CVs or screenshots with your forms, stored privately and scanned.',
    points: ['Size and type limits per form', 'Private storage with expiring links'],
  },
  {
    id: 'webhooks',
    icon: WebhookIcon,
    name: 'Webhooks & integrations',
    availability: 'Available',
    summary: 'Send each submission to your own API, Slack or a spreadsheet the moment it arrives.',
    points: [
      'Signed webhook requests with retries for a day',
      'Slack and Discord formats built in',
      'A delivery log you can replay',
    ],
    link: { label: 'Read the docs', to: `${paths.docs}#webhooks` },
  },
  {
    id: 'auto-responders',
    icon: ReplyIcon,
    name: 'Auto-responders',
    availability: 'Available',
    summary: 'Thank people automatically for their message and tell them when to expect an answer.',
    points: ['Per-form templates with merge fields', 'Never sent to spam, once a day per address'],
    link: { label: 'Read the docs', to: `${paths.docs}#autoresponder` },
  },
  {
    id: 'custom-web',
    icon: CodeIcon,
    name: 'Custom web development',
    availability: 'Available',
    summary:
      'Need more than a tool? Our team builds fast, accessible websites and web apps on the same stack.',
    points: ['Static sites, Supabase apps and integrations', 'Fixed-price projects'],
    link: { label: 'Learn more', to: paths.custom },
  },
];

const availabilityColor: Record<Availability, string> = {
  Available: 'green',
  'Announced for August': 'purple',
  'Coming soon': 'orange',
  Planned: 'gray',
};

function ToolCard({ tool }: { tool: Tool }) {
  return (
    <Card.Root
      as="article"
      id={tool.id}
      aria-labelledby={`${tool.id}-name`}
      variant="outline"
      h="full"
    >
      <Card.Body gap="4">
        <Flex justify="space-between" align="flex-start" gap="3">
          <IconTile icon={tool.icon} size="11" />
          <Badge
            colorPalette={availabilityColor[tool.availability]}
            variant="subtle"
            rounded="full"
            px="2.5"
          >
            {tool.availability}
          </Badge>
        </Flex>
        <Heading as="h3" id={`${tool.id}-name`} size="lg">
          {tool.name}
        </Heading>
        <Text color="fg.muted">{tool.summary}</Text>
        <CheckList items={tool.points} gap="1.5" fontSize="sm" />
      </Card.Body>
      {tool.link && (
        <Card.Footer>
          <Button asChild variant="outline" colorPalette="teal" size="sm">
            <RouterLink to={tool.link.to}>{tool.link.label}</RouterLink>
          </Button>
        </Card.Footer>
      )}
    </Card.Root>
  );
}

export function ToolsPage() {
  return (
    <>
      <PageMeta {...PAGE_META.tools} />
      <PageHero
        eyebrow="Tools"
        title="Small backend tools for your website"
        lead="Everything a static site or landing page needs around it, without running servers. Start with the form backend; more tools are on their way."
      >
        <Button asChild colorPalette="teal" size="lg">
          <RouterLink to={paths.register}>Start for free</RouterLink>
        </Button>
      </PageHero>
      <Box as="section" aria-label="tinyback in numbers" borderBottomWidth="1px">
        <Container maxW="5xl" py="10">
          <SimpleGrid as="dl" columns={{ base: 2, md: 4 }} gap="6" textAlign="center">
            {MARKETING_FIGURES.map((figure) => (
              <Stack key={figure.label} gap="1">
                <Text as="dt" order={2} color="fg.muted">
                  {figure.label}
                </Text>
                <Text
                  as="dd"
                  order={1}
                  fontSize={{ base: '3xl', md: '4xl' }}
                  fontWeight="800"
                  color="teal.700"
                >
                  {figure.value}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Container>
      </Box>
      <Section
        id="all-tools"
        title="The toolbox"
        intro="One account, one dashboard, one privacy promise."
      >
        <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="5">
          {tools.map((tool) => (
            <ToolCard key={tool.id} tool={tool} />
          ))}
        </SimpleGrid>
      </Section>
    </>
  );
}
