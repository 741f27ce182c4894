/// <reference types="vitest/config" />
import { defineConfig, loadEnv } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The build goes to dist/, which the Go binary embeds (//go:embed all:frontend/dist) and which is
// committed. Relative base: the same files work in the Wails webview and at http://127.0.0.1:PORT/.
// Fixed file names (no content hashes) keep the committed dist/ diffs small and reviewable.
export default defineConfig(({ mode }) => {
  // `npm run dev` against a running `strata serve`: STRATA_URL=http://127.0.0.1:47821 and
  // STRATA_TOKEN=<the data folder's mcp-token>. The proxy adds the bearer token and presents
  // Strata's own origin (Strata refuses requests from other origins).
  const env = loadEnv(mode, '.', 'STRATA_');
  const proxy = env.STRATA_URL
    ? {
        '/api': {
          target: env.STRATA_URL,
          changeOrigin: true,
          headers: {
            Origin: new URL(env.STRATA_URL).origin,
            ...(env.STRATA_TOKEN ? { Authorization: `Bearer ${env.STRATA_TOKEN}` } : {}),
          },
        },
      }
    : undefined;
  return {
    plugins: [svelte()],
    base: './',
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      rollupOptions: {
        output: {
          entryFileNames: 'assets/[name].js',
          chunkFileNames: 'assets/[name].js',
          assetFileNames: 'assets/[name][extname]',
        },
      },
    },
    server: { proxy },
    test: {
      include: ['src/**/*.test.ts'],
      environment: 'node',
    },
  };
});
