// The monthly/annual switch of the pricing page (a labelled radio group).
import { SegmentGroup } from '@chakra-ui/react';
import type { BillingCycle } from '../../../config/plans';

const items = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'annually', label: 'Annual · 2 months free' },
];

export function BillingToggle({
  value,
  onChange,
}: {
  value: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
}) {
  return (
    <SegmentGroup.Root
      value={value}
      onValueChange={(details) => onChange(details.value === 'annually' ? 'annually' : 'monthly')}
      aria-label="Billing cycle"
      size="lg"
      colorPalette="teal"
      bg="bg.muted"
    >
      <SegmentGroup.Indicator bg="bg" shadow="sm" />
      <SegmentGroup.Items items={items} px="4" />
    </SegmentGroup.Root>
  );
}
