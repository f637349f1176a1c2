// The time ranges of one day (a weekday, or a date override): a start and an end as HH:MM each,
// added and removed one by one, at most six. Nothing: unavailable that day.
import { Button, Flex, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { PlusIcon, XIcon } from 'lucide-react';
import { TextField } from '../../../components/text-field';
import { formatTime, nextRange, parseTime, type RangeValues } from '../availability';
import { BOOKING_LIMITS } from '../booking-form-schema';

export interface RangesEditorProps {
  /** Names the day in the controls' labels ("Monday", "2026-12-24"). */
  day: string;
  ranges: RangeValues[];
  /** The error of a range's field, once errors are shown. */
  error: (index: number, field: keyof RangeValues) => string | undefined;
  onChange: (ranges: RangeValues[]) => void;
  /** What an empty day says. */
  emptyText: string;
}

export function RangesEditor({ day, ranges, error, onChange, emptyText }: RangesEditorProps) {
  const set = (index: number, field: keyof RangeValues, value: string) =>
    onChange(ranges.map((range, i) => (i === index ? { ...range, [field]: value } : range)));
  // "9:00" reads as 09:00 once the field is left.
  const tidy = (index: number, field: keyof RangeValues) => {
    const minutes = parseTime(ranges[index][field]);
    if (minutes !== null && formatTime(minutes) !== ranges[index][field])
      set(index, field, formatTime(minutes));
  };
  const full = ranges.length >= BOOKING_LIMITS.rangesPerDay;

  return (
    <Stack gap="2" minW="0">
      {ranges.length === 0 && (
        <Text fontSize="sm" color="fg.muted">
          {emptyText}
        </Text>
      )}
      {ranges.map((range, index) => (
        <Flex key={index} gap="2" align="flex-start" wrap="wrap">
          <TextField
            label={`${day} start ${index + 1}`}
            hideLabel
            value={range.start}
            onChange={(event) => set(index, 'start', event.target.value)}
            onBlur={() => tidy(index, 'start')}
            error={error(index, 'start')}
            placeholder="09:00"
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            size="sm"
            width="5.5rem"
            rootProps={{ width: 'auto' }}
          />
          <Text as="span" aria-hidden pt="1.5">
            –
          </Text>
          <TextField
            label={`${day} end ${index + 1}`}
            hideLabel
            value={range.end}
            onChange={(event) => set(index, 'end', event.target.value)}
            onBlur={() => tidy(index, 'end')}
            error={error(index, 'end')}
            placeholder="17:00"
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            size="sm"
            width="5.5rem"
            rootProps={{ width: 'auto' }}
          />
          <IconButton
            aria-label={`Remove ${day} range ${index + 1}`}
            size="sm"
            variant="ghost"
            onClick={() => onChange(ranges.filter((_, i) => i !== index))}
          >
            <XIcon aria-hidden />
          </IconButton>
        </Flex>
      ))}
      <HStack>
        <Button
          size="xs"
          variant="ghost"
          colorPalette="teal"
          disabled={full}
          aria-label={`Add range, ${day}`}
          onClick={() => onChange([...ranges, nextRange(ranges)])}
        >
          <PlusIcon aria-hidden /> Add range
        </Button>
        {full && (
          <Text fontSize="xs" color="fg.muted">
            At most {BOOKING_LIMITS.rangesPerDay} ranges a day.
          </Text>
        )}
      </HStack>
    </Stack>
  );
}
