/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The Rust server (api/) serves the built UI and the API on one origin; in `vite dev`
// the API and the content-addressed files are proxied to it.
const apiTarget = process.env.MARKETPLACE_API ?? 'http://localhost:8080'

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/ipfs': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 4000,
  },
  test: {
    globals: true,
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    testTimeout: 20000,
    // One module graph per worker instead of one per file: the suite runs in ~30 s instead of
    // ~2 min on 2 cores. Tests reset the shared state they touch (stores, toaster, storage).
    isolate: false,
    include: ['src/**/*.test.{ts,tsx}'],
  },
})
