// Date overrides: a date, and either a day off or ranges that replace that date's weekly hours
// (holidays, a late day). Listed in the order added; stored by date.
import { Button, Field, Flex, IconButton, Input, Stack, Switch, Text } from '@chakra-ui/react';
import { PlusIcon, Trash2Icon } from 'lucide-react';
import type { OverrideValues, RangeValues } from '../availability';
import { BOOKING_LIMITS } from '../booking-form-schema';
import { RangesEditor } from './ranges-editor';

export interface OverrideErrors {
  date?: string;
  /** A day neither off nor with a range. */
  ranges?: string;
  range: (index: number, field: keyof RangeValues) => string | undefined;
}

export function OverridesEditor({
  overrides,
  errors,
  onChange,
}: {
  overrides: OverrideValues[];
  errors: (index: number) => OverrideErrors;
  onChange: (overrides: OverrideValues[]) => void;
}) {
  const set = (index: number, next: OverrideValues) =>
    onChange(overrides.map((override, i) => (i === index ? next : override)));
  const full = overrides.length >= BOOKING_LIMITS.overrides;

  return (
    <Stack gap="3">
      {overrides.length === 0 && (
        <Text fontSize="sm" color="fg.muted">
          No overrides: every date follows the weekly hours.
        </Text>
      )}
      {overrides.map((override, index) => {
        const label = override.date || `Override ${index + 1}`;
        const problems = errors(index);
        return (
          <Stack
            key={index}
            as="fieldset"
            gap="2"
            p="3"
            m="0"
            borderWidth="1px"
            borderRadius="lg"
            minW="0"
            aria-label={`Date override ${index + 1}`}
          >
            <Flex gap="3" align="flex-end" wrap="wrap">
              <Field.Root invalid={Boolean(problems.date)} width="auto">
                <Field.Label>Date</Field.Label>
                <Input
                  type="date"
                  size="sm"
                  width="11rem"
                  value={override.date}
                  onChange={(event) => set(index, { ...override, date: event.target.value })}
                />
                <Field.ErrorText>{problems.date}</Field.ErrorText>
              </Field.Root>
              <Switch.Root
                checked={override.dayOff}
                onCheckedChange={(details) =>
                  set(index, {
                    ...override,
                    dayOff: details.checked,
                    // Working that day after all: start from a usual day's hours.
                    ranges:
                      !details.checked && override.ranges.length === 0
                        ? [{ start: '09:00', end: '17:00' }]
                        : override.ranges,
                  })
                }
                colorPalette="teal"
                pb="2"
              >
                <Switch.HiddenInput />
                <Switch.Control>
                  <Switch.Thumb />
                </Switch.Control>
                <Switch.Label>Day off</Switch.Label>
              </Switch.Root>
              <IconButton
                aria-label={`Remove override ${label}`}
                size="sm"
                variant="ghost"
                colorPalette="red"
                ml="auto"
                onClick={() => onChange(overrides.filter((_, i) => i !== index))}
              >
                <Trash2Icon aria-hidden />
              </IconButton>
            </Flex>
            {!override.dayOff && (
              <RangesEditor
                day={label}
                ranges={override.ranges}
                error={problems.range}
                onChange={(ranges) => set(index, { ...override, ranges })}
                emptyText="No hours yet."
              />
            )}
            {!override.dayOff && problems.ranges && (
              <Text fontSize="sm" color="fg.error" role="alert">
                {problems.ranges}
              </Text>
            )}
          </Stack>
        );
      })}
      <Flex gap="2" align="center" wrap="wrap">
        <Button
          size="sm"
          variant="outline"
          disabled={full}
          onClick={() => onChange([...overrides, { date: '', dayOff: true, ranges: [] }])}
        >
          <PlusIcon aria-hidden /> Add date override
        </Button>
        {full && (
          <Text fontSize="xs" color="fg.muted">
            At most {BOOKING_LIMITS.overrides} date overrides.
          </Text>
        )}
      </Flex>
    </Stack>
  );
}
