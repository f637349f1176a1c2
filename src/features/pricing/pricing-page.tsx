// The pricing page: billing-cycle switch, the Free plan every account starts on, the three paid
// plans (spec §9) with their quotas, how plans work today, and the free self-hosted way. The
// chosen cycle lives in the URL (`?billing=annual`), so the plan links, the back button and a
// shared link all keep it.
import { useSearchParams } from 'react-router-dom';
import { Box, Container, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { PageHero } from '../../components/page-hero';
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';
import { billingParam, parseBilling, PLANS, type BillingCycle } from '../../config/plans';
import { BillingToggle } from './components/billing-toggle';
import { FreePlanCard } from './components/free-plan-card';
import { HowPlansWork } from './components/how-plans-work';
import { PlanCard } from './components/plan-card';
import { SelfHostCard } from './components/self-host-card';

export function PricingPage() {
  const [params, setParams] = useSearchParams();
  const cycle = parseBilling(params.get('billing'));

  function changeCycle(next: BillingCycle) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'monthly') updated.delete('billing');
        else updated.set('billing', billingParam(next));
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  return (
    <>
      <PageMeta {...PAGE_META.pricing} />
      <PageHero
        eyebrow="Pricing"
        title="Simple pricing for every stage"
        lead="Every account starts free, no credit card required. Move up when your forms get busy. Prices in euros, VAT may apply."
      >
        <BillingToggle value={cycle} onChange={changeCycle} />
      </PageHero>
      <Container maxW="6xl" py={{ base: '10', md: '16' }}>
        <FreePlanCard mb="6" />
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="6" alignItems="stretch">
          {PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} cycle={cycle} />
          ))}
        </SimpleGrid>
        <Stack mt="10" align="center">
          <Text color="fg.muted" textAlign="center">
            Every plan, Free included, has the whole form backend: spam protection, e-mail
            notifications, webhooks, the live inbox and the read API.
          </Text>
        </Stack>
        <Box mt={{ base: '10', md: '14' }}>
          <HowPlansWork />
        </Box>
        <SelfHostCard mt={{ base: '10', md: '14' }} />
      </Container>
    </>
  );
}
