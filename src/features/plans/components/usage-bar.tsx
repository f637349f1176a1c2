// One quota as a bar: how much of it is used, coloured by how close it is to full. A plain
// progressbar (role and values for assistive technology), labelled by its visible text.
import { useId } from 'react';
import { Box, Flex, Text } from '@chakra-ui/react';
import { usageLevel, usagePercent, usageText } from '../plan-usage';

const COLOURS = { ok: 'teal.600', warning: 'orange.500', exhausted: 'red.600' } as const;
/** Darker for text, so it keeps its contrast on the card. */
const TEXT_COLOURS = { ok: 'fg.muted', warning: 'orange.700', exhausted: 'red.700' } as const;

export function UsageBar({
  label,
  used,
  limit,
  unit,
  hint,
  standing = false,
}: {
  label: string;
  used: number;
  /** null: unlimited (no bar, only the count). */
  limit: number | null;
  /** 'project', 'submission': the count's unit, pluralised as needed. */
  unit: string;
  hint?: string;
  /**
   * A standing count (projects) rather than a monthly one: reaching the quota is normal use, so
   * it is marked only when over it, and shown without a percentage.
   */
  standing?: boolean;
}) {
  const labelId = useId();
  const percent = usagePercent(used, limit);
  const level = standing
    ? limit !== null && used > limit
      ? 'exhausted'
      : 'ok'
    : usageLevel(used, limit);
  const text = usageText(used, limit, unit);
  return (
    <Box>
      <Flex justify="space-between" align="baseline" gap="3" wrap="wrap">
        <Text id={labelId} fontWeight="semibold">
          {label}
        </Text>
        <Text color={TEXT_COLOURS[level]} fontSize="sm">
          {text}
          {percent !== null && !standing ? ` (${percent} %)` : ''}
        </Text>
      </Flex>
      {limit !== null && (
        <Box
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
          aria-valuetext={text}
          data-level={level}
          mt="2"
          h="2.5"
          rounded="full"
          bg="bg.muted"
          overflow="hidden"
        >
          <Box h="full" w={`${percent}%`} bg={COLOURS[level]} rounded="full" />
        </Box>
      )}
      {hint && (
        <Text mt="1.5" fontSize="sm" color="fg.muted">
          {hint}
        </Text>
      )}
    </Box>
  );
}
