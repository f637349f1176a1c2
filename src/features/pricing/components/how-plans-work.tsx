// What the plans measure and how changing plans works today, in plain words: a project is a
// website, submissions are counted per calendar month, what happens at the quota, which units
// arrive with the other tools, and that plans are switched by hand (no payment in the app yet).
import type { ReactNode } from 'react';
import { Box, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { FREE_PLAN, formatNumber, PLAN_QUOTAS } from '../../../config/plans';
import { site } from '../../../config/site';

const WARNING_PERCENT = 80;

function Point({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Heading as="h3" size="md" mb="2">
        {title}
      </Heading>
      <Text color="fg.muted">{children}</Text>
    </Box>
  );
}

export function HowPlansWork() {
  const free = FREE_PLAN.quota;
  return (
    <Stack as="section" aria-labelledby="how-plans-work" gap="6">
      <Heading as="h2" id="how-plans-work" size="xl" textAlign="center">
        How plans work
      </Heading>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap={{ base: '6', md: '8' }}>
        <Point title="Projects">
          A project is one website: each distinct allowed origin among your forms (such as
          https://example.com). Any number of forms on the same site count as one project; a form
          for another site, or for http://localhost while you develop, is another.
        </Point>
        <Point title="Submissions a month">
          The messages your forms accept in a calendar month (UTC), across all your forms. Spam
          caught by the honeypot is kept but not counted. We e-mail you at {WARNING_PERCENT} % and
          at 100 %; past the quota, new posts are refused with a clear answer until the 1st of the
          next month, and nothing you have already received is touched.
        </Point>
        <Point title="Every account starts free">
          Whatever you pick here, a new account is on Free ({free.projects} project,{' '}
          {formatNumber(free.submissionsPerMonth)} submissions a month). The plan you pick is saved
          with your account and shown in Settings, where you also see your usage.
        </Point>
        <Point title="Upgrading today">
          Payment is not collected in the app yet: plans are switched by hand on request. Write to{' '}
          <Link href={`mailto:${site.contactEmail}`} color="teal.700">
            {site.contactEmail}
          </Link>{' '}
          from your account&apos;s address and name the plan; its quotas hold from the moment it is
          switched. Enterprise has unlimited projects and{' '}
          {formatNumber(PLAN_QUOTAS.enterprise.submissionsPerMonth)} submissions a month.
        </Point>
        <Point title="More units as the tools arrive">
          Plans measure the form backend today. Analytics, team collaboration, custom integrations
          and the other tools are on the way, each with its own unit when it ships (storage for file
          uploads, for example); until then every plan has the same features.
        </Point>
        <Point title="Running it yourself">
          A self-hosted deployment can switch quotas off with one setting, or give each account the
          plan it should have (see the deploy guide below).
        </Point>
      </SimpleGrid>
    </Stack>
  );
}
