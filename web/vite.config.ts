import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Three entries (spec §2): the participant site, the back office and the review centre.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        backadmin: path.resolve(import.meta.dirname, 'backadmin.html'),
        review: path.resolve(import.meta.dirname, 'review.html'),
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
