// The date range: a preset (today, 7 or 30 days, this month) or a custom pair of dates, applied
// when both are valid. The choice is the URL's (analytics-page.tsx).
import { useId, useState } from 'react';
import { Button, Field, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import {
  customRangeProblem,
  RANGE_LABELS,
  RANGE_PRESETS,
  utcDate,
  type RangePreset,
  type SelectedRange,
} from '../date-range';

export interface RangePickerProps {
  range: SelectedRange;
  onPreset: (preset: Exclude<RangePreset, 'custom'>) => void;
  onCustom: (from: string, to: string) => void;
  /** The longest custom range, in days (the dashboard's own limit unless told). */
  maxDays?: number;
}

export function RangePicker({ range, onPreset, onCustom, maxDays }: RangePickerProps) {
  const selectId = useId();
  // 'custom' is picked before its dates are: the inputs show until a range is applied.
  const [customOpen, setCustomOpen] = useState(range.preset === 'custom');
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [problem, setProblem] = useState<string | null>(null);
  const today = utcDate(new Date());
  const value = customOpen ? 'custom' : range.preset;

  function apply() {
    const why = customRangeProblem(from, to, new Date(), maxDays);
    setProblem(why);
    if (!why) onCustom(from, to);
  }

  return (
    <Stack gap="2">
      <Field.Root maxW={{ base: 'full', sm: '15rem' }}>
        <Field.Label htmlFor={selectId}>Date range</Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            id={selectId}
            value={value}
            onChange={(event) => {
              const next = event.target.value as RangePreset;
              if (next === 'custom') {
                setFrom(range.from);
                setTo(range.to);
                setCustomOpen(true);
                return;
              }
              setCustomOpen(false);
              setProblem(null);
              onPreset(next);
            }}
          >
            {RANGE_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {RANGE_LABELS[preset]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      {customOpen && (
        <form
          aria-label="Custom date range"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <HStack gap="2" align="end" flexWrap="wrap">
            <TextField
              label="From"
              type="date"
              size="sm"
              max={today}
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              rootProps={{ width: 'auto' }}
            />
            <TextField
              label="To"
              type="date"
              size="sm"
              max={today}
              value={to}
              onChange={(event) => setTo(event.target.value)}
              rootProps={{ width: 'auto' }}
            />
            <Button type="submit" size="sm" variant="outline">
              Apply
            </Button>
          </HStack>
          {problem && (
            <Text role="alert" fontSize="sm" color="fg.error" mt="1">
              {problem}
            </Text>
          )}
          <Text fontSize="xs" color="fg.muted" mt="1">
            Dates are UTC days.
          </Text>
        </form>
      )}
    </Stack>
  );
}
