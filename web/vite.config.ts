/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The Go server embeds web/dist (web/embed.go), so the build must land there.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: false, // keep dist/.gitkeep so a clean clone compiles
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
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
