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
      treeshake: {
        // antd's rc-* packages declare no sideEffects, so a module imported for one small export stays whole: antd's
        // Card pulls its form context's rc-field-form (with async-validator) onto the participant's first screen
        // (ARCHITECTURE §9). Their modules only define things, so unused ones may go.
        moduleSideEffects: [{ test: /node_modules[\\/](rc-[^\\/]+|@rc-component[\\/][^\\/]+)[\\/]/, sideEffects: false }],
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
