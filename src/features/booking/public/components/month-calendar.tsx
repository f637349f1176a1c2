// The booking page's month: a grid of days (the ARIA grid pattern: one day in the tab order,
// arrow keys move by day and week, Home/End to the week's ends, Page Up/Down by month). Days
// without a free slot stay focusable but cannot be picked, so moving through them never jumps.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Button, Flex, Heading, IconButton, Text } from '@chakra-ui/react';
import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { addMonths, monthGrid, monthOf, type MonthKey } from '../slot-days';
import { addDays, formatDay, formatMonth, type DayKey } from '../zoned-time';

const WEEKDAYS = [
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
  ['Su', 'Sunday'],
] as const;

export interface MonthCalendarProps {
  month: MonthKey;
  /** The months the visitor may move between. */
  firstMonth: MonthKey;
  lastMonth: MonthKey;
  onMonthChange: (month: MonthKey) => void;
  /** Days with at least one free slot. */
  available: ReadonlySet<DayKey>;
  selected: DayKey | null;
  onSelect: (day: DayKey) => void;
  today: DayKey;
  /** The month's slots are loading: days are not yet known to be free or not. */
  loading: boolean;
}

export function MonthCalendar({
  month,
  firstMonth,
  lastMonth,
  onMonthChange,
  available,
  selected,
  onSelect,
  today,
  loading,
}: MonthCalendarProps) {
  const weeks = monthGrid(month);
  const days = weeks.flat().filter((d): d is DayKey => d !== null);
  const grid = useRef<HTMLTableElement>(null);
  // The day that holds the grid's one tab stop.
  const [focus, setFocus] = useState<DayKey | null>(null);
  // Set by the arrow keys: after the render, the DOM focus follows the tab stop.
  const moved = useRef(false);
  const tabStop =
    focus && monthOf(focus) === month
      ? focus
      : ((selected && monthOf(selected) === month ? selected : null) ??
        days.find((d) => available.has(d)) ??
        (monthOf(today) === month ? today : days[0]));

  // Arrow keys moved the focus (perhaps into another month): follow it with the DOM focus.
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-day="${tabStop}"]`)?.focus();
  });

  const canBack = month > firstMonth;
  const canForward = month < lastMonth;

  function moveTo(day: DayKey) {
    const target = monthOf(day);
    if (target < firstMonth || target > lastMonth) return;
    setFocus(day);
    moved.current = true;
    if (target !== month) onMonthChange(target);
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, day: DayKey) {
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
    const moves: Record<string, () => DayKey> = {
      ArrowLeft: () => addDays(day, -1),
      ArrowRight: () => addDays(day, 1),
      ArrowUp: () => addDays(day, -7),
      ArrowDown: () => addDays(day, 7),
      Home: () => addDays(day, -weekday),
      End: () => addDays(day, 6 - weekday),
      PageUp: () => sameDayIn(day, -1),
      PageDown: () => sameDayIn(day, 1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    moveTo(move());
  }

  const title = formatMonth(month);
  return (
    <Box>
      <Flex align="center" justify="space-between" mb="3" gap="2">
        <IconButton
          aria-label="Previous month"
          variant="ghost"
          size="sm"
          disabled={!canBack}
          onClick={() => onMonthChange(addMonths(month, -1))}
        >
          <ChevronLeftIcon />
        </IconButton>
        <Heading as="h3" size="md" id={`month-${month}`} aria-live="polite">
          {title}
        </Heading>
        <IconButton
          aria-label="Next month"
          variant="ghost"
          size="sm"
          disabled={!canForward}
          onClick={() => onMonthChange(addMonths(month, 1))}
        >
          <ChevronRightIcon />
        </IconButton>
      </Flex>
      <Box
        as="table"
        ref={grid}
        role="grid"
        aria-labelledby={`month-${month}`}
        aria-busy={loading || undefined}
        w="full"
        css={{ borderCollapse: 'separate', borderSpacing: '2px', tableLayout: 'fixed' }}
      >
        <thead>
          <tr>
            {WEEKDAYS.map(([short, long]) => (
              <th key={short} scope="col">
                <Text
                  as="abbr"
                  title={long}
                  display="block"
                  py="1"
                  textStyle="xs"
                  fontWeight="medium"
                  color="fg.muted"
                  textDecoration="none"
                >
                  {short}
                </Text>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, index) => (
            <tr key={index}>
              {week.map((day, column) =>
                day === null ? (
                  <td key={`empty-${column}`} />
                ) : (
                  <td key={day} role="gridcell" aria-selected={day === selected}>
                    <DayButton
                      day={day}
                      free={available.has(day)}
                      selected={day === selected}
                      today={day === today}
                      tabStop={day === tabStop}
                      loading={loading}
                      onSelect={() => {
                        setFocus(day);
                        onSelect(day);
                      }}
                      onKeyDown={(event) => onKeyDown(event, day)}
                    />
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

/** The same day of the month `months` away, or that month's last day. */
function sameDayIn(day: DayKey, months: number): DayKey {
  const target = addMonths(monthOf(day), months);
  const last = monthGrid(target).flat().filter(Boolean).length;
  const date = Math.min(Number(day.slice(8)), last);
  return `${target}-${String(date).padStart(2, '0')}`;
}

function DayButton({
  day,
  free,
  selected,
  today,
  tabStop,
  loading,
  onSelect,
  onKeyDown,
}: {
  day: DayKey;
  free: boolean;
  selected: boolean;
  today: boolean;
  tabStop: boolean;
  loading: boolean;
  onSelect: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}) {
  const unavailable = !free;
  const label = `${formatDay(day)}${today ? ', today' : ''}${
    loading ? '' : free ? ', free times' : ', no free times'
  }`;
  return (
    <Button
      data-day={day}
      aria-label={label}
      aria-disabled={unavailable || undefined}
      tabIndex={tabStop ? 0 : -1}
      onClick={unavailable ? undefined : onSelect}
      onKeyDown={onKeyDown}
      w="full"
      minW="0"
      maxW={{ base: '10', sm: '11' }}
      mx="auto"
      display="flex"
      h={{ base: '10', sm: '11' }}
      px="0"
      rounded="full"
      fontWeight={free ? 'semibold' : 'normal'}
      variant={selected ? 'solid' : free ? 'subtle' : 'ghost'}
      colorPalette="teal"
      color={unavailable ? 'fg.subtle' : undefined}
      cursor={unavailable ? 'default' : 'pointer'}
      textDecoration={today ? 'underline' : undefined}
      textUnderlineOffset="3px"
      _hover={unavailable ? { bg: 'transparent' } : undefined}
    >
      {Number(day.slice(8))}
    </Button>
  );
}
