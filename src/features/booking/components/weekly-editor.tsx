// The weekly hours: for each weekday, Monday first, the ranges visitors may book in, in the
// form's time zone. "Copy to all weekdays" repeats Monday's hours from Tuesday to Friday.
import { Box, Button, Grid, Stack, Text } from '@chakra-ui/react';
import { WEEKDAYS, type RangeValues } from '../availability';
import { RangesEditor } from './ranges-editor';

export function WeeklyEditor({
  weekly,
  error,
  onChange,
}: {
  weekly: RangeValues[][];
  error: (day: number, index: number, field: keyof RangeValues) => string | undefined;
  onChange: (weekly: RangeValues[][]) => void;
}) {
  const setDay = (day: number, ranges: RangeValues[]) =>
    onChange(weekly.map((other, i) => (i === day ? ranges : other)));

  return (
    <Stack gap="0" borderWidth="1px" borderRadius="lg" divideY="1px">
      {WEEKDAYS.map((name, day) => (
        <Grid
          key={name}
          as="fieldset"
          templateColumns={{ base: '1fr', sm: '8rem 1fr' }}
          gap={{ base: '1', sm: '3' }}
          p="3"
          m="0"
          minW="0"
        >
          <Box as="legend" float="left" fontWeight="medium" pt={{ sm: '1' }}>
            {name}
          </Box>
          <Stack gap="1" minW="0">
            <RangesEditor
              day={name}
              ranges={weekly[day] ?? []}
              error={(index, field) => error(day, index, field)}
              onChange={(ranges) => setDay(day, ranges)}
              emptyText="Unavailable"
            />
            {day === 0 && (weekly[0] ?? []).length > 0 && (
              <Button
                size="xs"
                variant="plain"
                alignSelf="flex-start"
                px="0"
                color="fg.muted"
                onClick={() =>
                  onChange(
                    weekly.map((ranges, i) =>
                      i > 0 && i < 5 ? weekly[0].map((range) => ({ ...range })) : ranges,
                    ),
                  )
                }
              >
                <Text as="span" textDecoration="underline">
                  Copy to Tuesday–Friday
                </Text>
              </Button>
            )}
          </Stack>
        </Grid>
      ))}
    </Stack>
  );
}
