/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The Go server embeds web/dist (web/embed.go), so the build must land there.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: false, // keep dist/.gitkeep so a clean clone compiles
    chunkSizeWarningLimit: 1600, // the UI kit (antd, its icons, the router, i18n: codeSplitting below) is one ~1.5 MB file by design
    sourcemap: false,
    // Two entries: the console (index.html) and the phone web app served at /app (app.html, its own small bundle).
    rolldownOptions: {
      input: { main: fileURLToPath(new URL('./index.html', import.meta.url)), app: fileURLToPath(new URL('./app.html', import.meta.url)) },
      output: {
        // The libraries every screen runs on come in two files instead of a hundred small ones (issue 32: a
        // sign-in fetched 117 scripts): React and zustand, which the phone app shares, and the console's UI kit
        // (router, query cache, i18n, antd and its icons, dayjs). The heavy libraries of a few screens (maps,
        // charts, spreadsheets) and the app's own code stay split by screen.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|zustand|use-sync-external-store)[\\/]/, priority: 2 },
            { name: 'ui', test: /node_modules[\\/](react-router|@tanstack|i18next|react-i18next|antd|@ant-design|@rc-component|dayjs)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/ds': { target: process.env.TENFOUR_URL ?? 'http://127.0.0.1:8080', ws: true, changeOrigin: false },
      '/static': { target: process.env.TENFOUR_URL ?? 'http://127.0.0.1:8080' },
    },
  },
  test: {
    // jsdom by default; a file that needs no DOM says so in its first line (`// @vitest-environment node`): building
    // a jsdom environment per file was most of the suite's time (CI: 87 s of 163).
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
