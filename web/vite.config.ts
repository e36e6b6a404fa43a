/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';
import { constants as zlib } from 'node:zlib';
import { availableParallelism } from 'node:os';

// The Go server embeds web/dist (web/embed.go), so the build must land there.
export default defineConfig({
  // Every text asset (scripts, styles, HTML, JSON, SVG) of 1 KiB or more also lands beside itself compressed, as .gz
  // and .br: the server sends the smallest the browser accepts (internal/app's consoleHandler), never compressing on
  // a request (docs/adr/0047). Brotli at quality 10: 1 % larger than 11 in half the build time.
  plugins: [
    react(),
    compression({
      algorithms: [
        ['gzip', { level: zlib.Z_BEST_COMPRESSION }],
        ['brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 10 } }],
      ],
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: false, // keep dist/.gitkeep so a clean clone compiles
    chunkSizeWarningLimit: 1600, // the UI kit (antd and its icons: codeSplitting below) is one ~1.2 MB file by design
    sourcemap: false,
    // Two entries: the console (index.html) and the phone web app served at /app (app.html, its own small bundle).
    rolldownOptions: {
      input: { main: fileURLToPath(new URL('./index.html', import.meta.url)), app: fileURLToPath(new URL('./app.html', import.meta.url)) },
      output: {
        // The libraries come in a few files instead of a hundred small ones (issue 32: a sign-in fetched 117
        // scripts), cut so that the login page needs none of the UI kit (issue 32: /login usable in 0.8 s): React
        // and zustand, which the phone app shares; the router, query cache, i18n and dayjs; what the login page
        // takes from antd — the theme's token derivation (shared/theme.ts) and the outlines of its six icons; and
        // the rest of the UI kit (antd, its icons), which the login page preloads once it has painted. The heavy
        // libraries of a few screens (maps, charts, spreadsheets) and the app's own code stay split by screen.
        codeSplitting: {
          groups: [
            // The outlines the phone app draws (web/src/phone/ui/Icon.tsx): a few kilobytes of its own, so that the
            // phone app never loads the UI kit's chunk for them (the console shares the file).
            {
              name: 'phone-icons',
              test: /@ant-design[\\/]icons-svg[\\/]es[\\/]asn[\\/]((Menu|VideoCamera|Profile|Environment|Flag|Mail|Close|Check|Down)Outlined|(CheckCircle|ClockCircle|ExclamationCircle)Outlined)\.js/,
              priority: 5,
            },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|zustand|use-sync-external-store)[\\/]/, priority: 4 },
            { name: 'core', test: /node_modules[\\/](react-router|@tanstack|i18next|react-i18next|dayjs)[\\/]/, priority: 3 },
            {
              name: 'theme',
              test: /node_modules[\\/](antd[\\/]es[\\/](theme[\\/]|version[\\/]|config-provider[\\/]context\.js)|@ant-design[\\/](colors|fast-color|cssinjs|cssinjs-utils)[\\/]|@emotion[\\/]|stylis[\\/]|clsx[\\/]|@ant-design[\\/]icons-svg[\\/]es[\\/]asn[\\/]((User|Lock|Eye|EyeInvisible)Outlined|(CloseCircle|ExclamationCircle)Filled)\.js)/,
              priority: 2,
            },
            { name: 'ui', test: /node_modules[\\/](antd|@ant-design|@rc-component)[\\/]/, priority: 1 },
            // The small shared modules the shell, the dispatch screen and the dock need beyond the entry's, one file
            // instead of some 25 (each its own request after a sign-in). None of the entry's or the phone app's
            // (they would then load it all, and the UI kit it imports), nor the few that pull a heavy library.
            {
              name: 'console',
              test: /[\\/]src[\\/]shared[\\/](alarms[\\/]|terminalActions[\\/]|schoolbus[\\/]|incoming[\\/]|table[\\/]|crud[\\/]|geo[\\/](?!measure)|errorText\.|errors\.|queryKeys\.|socket[\\/]useLiveQueries\.|directory[\\/](useLiveDirectory|model|choices|TerminalPicker)\.|voice[\\/](console|errors|rows)\.|video[\\/]store\.|time[\\/](zone|range|RangePicker)\.|utils[\\/](useNow|text|files)\.)/,
              includeDependenciesRecursively: false,
              priority: 0,
            },
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
    // One worker per core. Vitest's own default in a run is one fewer, which on CI's two cores is a single worker:
    // the test files then ran one after another while the other core only transformed (docs/testing.md).
    maxWorkers: availableParallelism(),
  },
});
