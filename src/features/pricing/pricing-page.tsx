// The pricing page: billing-cycle switch and the three plans (spec §9).
import { useState } from 'react';
import { Container, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { PageHero } from '../../components/page-hero';
import { useDocumentTitle } from '../../components/use-document-title';
import { PLANS, type BillingCycle } from '../../config/site';
import { BillingToggle } from './components/billing-toggle';
import { PlanCard } from './components/plan-card';

export function PricingPage() {
  useDocumentTitle('Pricing');
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  return (
    <>
      <PageHero
        eyebrow="Pricing"
        title="Simple pricing for every stage"
        lead="Start small and upgrade when your forms get busy. Prices in euros, VAT may apply."
      >
        <BillingToggle value={cycle} onChange={setCycle} />
      </PageHero>
      <Container maxW="6xl" py={{ base: '10', md: '16' }}>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="6" alignItems="stretch">
          {PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} cycle={cycle} />
          ))}
        </SimpleGrid>
        <Stack mt="10" align="center">
          <Text color="fg.muted" textAlign="center">
            Every plan includes spam protection, e-mail delivery, EU hosting and daily backups.
            Cancel at any time.
          </Text>
        </Stack>
      </Container>
    </>
  );
}
