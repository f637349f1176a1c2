// A booking's time in the visitor's zone and in the owner's, both named (one line when the
// zones are the same), and where it takes place.
import { DataList } from '@chakra-ui/react';
import { formatSpan } from '../zoned-time';

export function BookingTimes({
  start,
  end,
  visitorZone,
  ownerZone,
  location,
}: {
  start: string;
  end: string;
  visitorZone: string;
  ownerZone: string;
  location?: string;
}) {
  const same = formatSpan(start, end, visitorZone) === formatSpan(start, end, ownerZone);
  return (
    <DataList.Root orientation={{ base: 'vertical', sm: 'horizontal' }} gap="3">
      <DataList.Item>
        <DataList.ItemLabel>{same ? 'When' : 'Your time'}</DataList.ItemLabel>
        <DataList.ItemValue>{formatSpan(start, end, visitorZone)}</DataList.ItemValue>
      </DataList.Item>
      {!same && (
        <DataList.Item>
          <DataList.ItemLabel>Host’s time</DataList.ItemLabel>
          <DataList.ItemValue>{formatSpan(start, end, ownerZone)}</DataList.ItemValue>
        </DataList.Item>
      )}
      {location ? (
        <DataList.Item>
          <DataList.ItemLabel>Where</DataList.ItemLabel>
          <DataList.ItemValue overflowWrap="anywhere">{location}</DataList.ItemValue>
        </DataList.Item>
      ) : null}
    </DataList.Root>
  );
}
