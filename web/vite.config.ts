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
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
    // Two entries: the console (index.html) and the phone web app served at /app (app.html, its own small bundle).
    rollupOptions: { input: { main: fileURLToPath(new URL('./index.html', import.meta.url)), app: fileURLToPath(new URL('./app.html', import.meta.url)) } },
  },
  server: {
    proxy: {
      '/ds': { target: process.env.TENFOUR_URL ?? 'http://127.0.0.1:8080', ws: true, changeOrigin: false },
      '/static': { target: process.env.TENFOUR_URL ?? 'http://127.0.0.1:8080' },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
