// Supabase Realtime stand-in (postgres_changes over the Phoenix protocol) at /realtime/v1/websocket.
import type { StackContext, UpgradeService } from '../context.ts';

export async function createRealtimeService(_ctx: StackContext): Promise<UpgradeService> {
  return {
    handleUpgrade(_req, socket) {
      socket.end('HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\n\r\n');
    },
    async close() {},
  };
}
