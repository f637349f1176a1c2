// 'Export CSV': every message of the current view (form, inbox or spam, search), read in chunks,
// saved as tinyback-messages-YYYY-MM-DD.csv.
import { useState } from 'react';
import { Button } from '@chakra-ui/react';
import { DownloadIcon } from 'lucide-react';
import { notify } from '../../../components/toaster';
import { getAllMessages } from '../api/export-messages';
import { messagesToCsv } from '../csv';
import { dateStamp } from '../format-date';
import type { MessageFilter } from '../types';
import { downloadText } from '../../../lib/download';

export interface ExportButtonProps {
  filter: MessageFilter;
  formName: (formId: string) => string | undefined;
}

export function ExportButton({ filter, formName }: ExportButtonProps) {
  const [loaded, setLoaded] = useState<number | null>(null);

  async function exportCsv() {
    setLoaded(0);
    try {
      const messages = await getAllMessages(filter, { onProgress: setLoaded });
      downloadText(
        messagesToCsv(messages, { formName }),
        `tinyback-messages-${dateStamp(new Date())}.csv`,
        'text/csv;charset=utf-8',
      );
      notify(
        'success',
        'Export ready',
        messages.length === 1 ? '1 message exported.' : `${messages.length} messages exported.`,
      );
    } catch (error) {
      notify(
        'error',
        'Export failed',
        error instanceof Error ? error.message : 'The messages could not be read.',
      );
    } finally {
      setLoaded(null);
    }
  }

  const exporting = loaded !== null;
  return (
    <Button
      variant="outline"
      onClick={() => void exportCsv()}
      loading={exporting}
      loadingText={loaded ? `Exporting ${loaded.toLocaleString('en-US')}…` : 'Exporting…'}
    >
      <DownloadIcon aria-hidden="true" /> Export CSV
    </Button>
  );
}
