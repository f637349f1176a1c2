// Vite config: the React app, plus the dev-server rewrite of the public form endpoint
// `/api/forms/{id}` to the `forms` Edge Function (the same rewrite a production host does).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const functionsUrl = `${process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321'}/functions/v1`;

export default defineConfig({
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: {
      '/api/forms': {
        target: functionsUrl,
        changeOrigin: true,
        rewrite: (path) => path.replace(/^\/api\/forms/, '/forms'),
      },
    },
  },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
});
