// The signed-in owner's file storage: bytes their messages' files keep, and the deployment's quota
// (storage_use(); null: no quota).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { uploadsKeys } from './query-keys';

interface StorageUse {
  usedBytes: number;
  quotaBytes: number | null;
}

async function getStorageUse(): Promise<StorageUse> {
  const { data, error } = await supabase.rpc('storage_use');
  if (error) throw error;
  const use = (data ?? {}) as { used_bytes?: unknown; quota_bytes?: unknown };
  return {
    usedBytes: Number(use.used_bytes ?? 0),
    quotaBytes:
      use.quota_bytes === null || use.quota_bytes === undefined ? null : Number(use.quota_bytes),
  };
}

export function useStorageUse() {
  return useQuery({ queryKey: uploadsKeys.storageUse(), queryFn: getStorageUse });
}
