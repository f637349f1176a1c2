// Notices edits under the functions folders so workers are replaced with fresh code, as
// `supabase functions serve` reloads on save.
import { existsSync, watch, type FSWatcher } from 'node:fs';

export interface FolderWatch {
  close(): void;
}

/** Calls `onChange(dir)` once per burst of changes below `dir` (editors save in several steps). */
export function watchFolders(
  dirs: string[],
  onChange: (dir: string) => void,
  log: (message: string) => void,
  debounceMs = 150,
): FolderWatch {
  const watchers: FSWatcher[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  for (const dir of new Set(dirs)) {
    if (!existsSync(dir)) continue;
    try {
      const watcher = watch(dir, { recursive: true }, () => {
        clearTimeout(timers.get(dir));
        timers.set(
          dir,
          setTimeout(() => {
            timers.delete(dir);
            onChange(dir);
          }, debounceMs),
        );
      });
      // Watching is a convenience: without it, changes apply after a restart of the stack.
      watcher.on('error', (err) => log(`not watching ${dir}: ${err.message}`));
      watchers.push(watcher);
    } catch (err) {
      log(`not watching ${dir}: ${(err as Error).message}`);
    }
  }
  return {
    close() {
      for (const w of watchers) w.close();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}
