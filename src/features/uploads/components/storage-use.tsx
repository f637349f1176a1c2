// Settings' "File storage": how much the files of the owner's messages take, against the
// deployment's quota (a post whose files do not fit is refused). A progressbar labelled by its
// visible text, as the plan's usage bars are.
import { useId } from 'react';
import { Box, Button, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { formatFileSize } from '../../../config/uploads';
import { useStorageUse } from '../api/get-storage-use';

export function StorageUse() {
  const use = useStorageUse();
  const labelId = useId();
  return (
    <Stack as="section" gap="3" aria-labelledby={labelId} mt="8">
      <Heading as="h3" size="md" id={labelId}>
        File storage
      </Heading>
      {use.isPending ? (
        <Skeleton h="10" aria-busy="true" aria-label="Loading your file storage" />
      ) : use.isError ? (
        <Stack gap="2" align="start">
          <Text role="alert" color="red.600" fontSize="sm">
            Your file storage could not be loaded.
          </Text>
          <Button size="sm" variant="outline" onClick={() => void use.refetch()}>
            Try again
          </Button>
        </Stack>
      ) : (
        <StorageBar usedBytes={use.data.usedBytes} quotaBytes={use.data.quotaBytes} />
      )}
    </Stack>
  );
}

function StorageBar({ usedBytes, quotaBytes }: { usedBytes: number; quotaBytes: number | null }) {
  const textId = useId();
  const used = formatFileSize(usedBytes);
  if (quotaBytes === null)
    return (
      <Text color="fg.muted" id={textId}>
        {used} of files kept; this deployment sets no storage quota.
      </Text>
    );
  const percent = quotaBytes > 0 ? Math.min(100, Math.round((usedBytes / quotaBytes) * 100)) : 100;
  const text = `${used} of ${formatFileSize(quotaBytes)} used`;
  const full = percent >= 100;
  return (
    <Box>
      <Flex justify="space-between" gap="3" wrap="wrap">
        <Text fontSize="sm" color={full ? 'red.700' : percent >= 80 ? 'orange.700' : 'fg.muted'}>
          {text} ({percent} %)
        </Text>
      </Flex>
      <Box
        role="progressbar"
        aria-label="File storage used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        h="2"
        mt="2"
        bg="bg.muted"
        rounded="full"
        overflow="hidden"
      >
        <Box
          h="full"
          w={`${percent}%`}
          bg={full ? 'red.600' : percent >= 80 ? 'orange.500' : 'teal.600'}
        />
      </Box>
      <Text fontSize="sm" color="fg.muted" mt="2">
        {full
          ? 'Your storage is full: posts with files are refused until you delete messages with files.'
          : 'Files of your messages count here; deleting a message frees its files’ space.'}
      </Text>
    </Box>
  );
}
