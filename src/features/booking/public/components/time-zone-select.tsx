// The visitor's time zone, detected from the browser and changeable: every day and time on the
// page follows it.
import { useId, useMemo } from 'react';
import { Field, NativeSelect } from '@chakra-ui/react';
import { zoneChoices, zoneLabel } from '../zoned-time';

export function TimeZoneSelect({
  zone,
  onChange,
}: {
  zone: string;
  onChange: (zone: string) => void;
}) {
  const zones = useMemo(() => zoneChoices(zone), [zone]);
  const id = useId();
  return (
    <Field.Root maxW={{ base: 'full', sm: '20rem' }}>
      <Field.Label htmlFor={id}>Your time zone</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field id={id} value={zone} onChange={(event) => onChange(event.target.value)}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {zoneLabel(z)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
