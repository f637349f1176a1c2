// A message's files, in its drawer: each with its name, size and kind, a thumbnail for a raster
// image (PNG, JPEG, GIF, WebP; never SVG), and a download button. Thumbnails and downloads go
// through signed addresses that work for a minute; a download's is made at the click, with the
// stored name as the attachment's. What fails is said in words beside the file.
import { useId, useState } from 'react';
import { Box, Button, chakra, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { DownloadIcon, FileArchiveIcon, FileIcon, FileTextIcon, ImageIcon } from 'lucide-react';
import { formatFileSize, type EntryFile } from '../../../config/uploads';
import { useCreateDownloadUrl } from '../api/create-download-url';
import { useThumbnailUrl } from '../api/get-thumbnail-url';
import { hasThumbnail, inSentOrder, kindLabel, shownFileName } from '../file-display';
import { describeFileError } from '../upload-errors';

export interface MessageFilesProps {
  files: readonly EntryFile[];
}

const THUMBNAIL_SIZE = '12';

export function MessageFiles({ files }: MessageFilesProps) {
  const headingId = useId();
  if (files.length === 0) return null;
  return (
    <Stack as="section" aria-labelledby={headingId} gap="2">
      <Heading as="h3" id={headingId} size="sm">
        Files
      </Heading>
      <Stack as="ul" aria-labelledby={headingId} gap="2" listStyleType="none">
        {inSentOrder(files).map((file) => (
          <FileItem key={file.id} file={file} />
        ))}
      </Stack>
    </Stack>
  );
}

function FileItem({ file }: { file: EntryFile }) {
  const name = shownFileName(file);
  const download = useCreateDownloadUrl();
  const [problem, setProblem] = useState<string | null>(null);

  function start() {
    setProblem(null);
    download.mutate(
      { objectKey: file.object_key, name: file.name },
      {
        onSuccess: (url) => openDownload(url),
        onError: (error) => setProblem(describeFileError(error, name)),
      },
    );
  }

  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="2">
      <Flex gap="3" align="center">
        {hasThumbnail(file) ? (
          <Thumbnail objectKey={file.object_key} name={name} />
        ) : (
          <KindIcon kind={file.kind} />
        )}
        <Stack gap="0" minW="0" flex="1">
          <Text textStyle="sm" fontWeight="medium" wordBreak="break-all">
            {name}
          </Text>
          <Text textStyle="xs" color="fg.muted">
            {formatFileSize(file.size)} · {kindLabel(file.kind)}
          </Text>
        </Stack>
        <Button
          size="xs"
          variant="outline"
          flexShrink={0}
          aria-label={`Download ${name}`}
          loading={download.isPending}
          onClick={start}
        >
          <DownloadIcon aria-hidden="true" /> Download
        </Button>
      </Flex>
      {problem && (
        <Text role="alert" textStyle="xs" color="fg.error" mt="2">
          {problem}
        </Text>
      )}
    </Box>
  );
}

/** Follows a signed download address: Storage answers with the file as an attachment. */
function openDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener noreferrer';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

function Thumbnail({ objectKey, name }: { objectKey: string; name: string }) {
  const url = useThumbnailUrl(objectKey, true);
  const [broken, setBroken] = useState(false);
  if (url.isPending) return <Skeleton boxSize={THUMBNAIL_SIZE} borderRadius="sm" flexShrink={0} />;
  if (url.isError || broken) {
    return (
      <Flex
        boxSize={THUMBNAIL_SIZE}
        flexShrink={0}
        align="center"
        justify="center"
        borderRadius="sm"
        bg="bg.muted"
        title="No preview: the image could not be loaded."
      >
        <ImageIcon aria-hidden="true" />
        <chakra.span srOnly>No preview of {name}: the image could not be loaded.</chakra.span>
      </Flex>
    );
  }
  return (
    <chakra.img
      src={url.data}
      alt={`Preview of ${name}`}
      boxSize={THUMBNAIL_SIZE}
      objectFit="cover"
      borderRadius="sm"
      flexShrink={0}
      // The signed address is the only credential: it is never sent on as a referrer.
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}

function KindIcon({ kind }: { kind: string }) {
  const Icon =
    kind === 'image'
      ? ImageIcon
      : kind === 'text' || kind === 'pdf' || kind === 'office'
        ? FileTextIcon
        : kind === 'archive'
          ? FileArchiveIcon
          : FileIcon;
  return (
    <Flex
      boxSize={THUMBNAIL_SIZE}
      flexShrink={0}
      align="center"
      justify="center"
      borderRadius="sm"
      bg="bg.muted"
      color="fg.muted"
    >
      <Icon aria-hidden="true" />
    </Flex>
  );
}
