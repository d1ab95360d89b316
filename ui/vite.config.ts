/// <reference types="vitest/config" />
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, URL } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The Rust server (api/) serves the built UI and the API on one origin; in `vite dev`
// the API and the content-addressed files are proxied to it.
const apiTarget = process.env.MARKETPLACE_API ?? 'http://localhost:8080'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * Test files that replace modules with `vi.mock` (wagmi, its actions): in the shared module graph a
 * file that ran earlier may have loaded the real modules already, so these run isolated.
 */
function mockingTestFiles(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return mockingTestFiles(path)
    if (!/\.test\.tsx?$/.test(entry.name) || !readFileSync(path, 'utf8').includes('vi.mock(')) return []
    return [relative(root, path)]
  })
}
const mocking = mockingTestFiles()

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
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // viem's unit conversions (formatUnits, parseEther) are all the first screens use of
            // viem: on their own they are 1 KB; left in viem's shared chunk they would bring the
            // whole of it (about 75 KB compressed) to every first visit.
            { name: 'viem-units', test: /node_modules[\\/]viem[\\/]_esm[\\/]utils[\\/]unit[\\/]/ },
            // Vite's helper for lazy chunks, which every screen needs: otherwise it may share a
            // chunk with a hash function of the wallet code, downloaded with it on every visit.
            { name: 'preload-helper', test: /vite[\\/]preload-helper/ },
          ],
        },
      },
    },
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
    projects: [
      { extends: true, test: { name: 'shared', include: ['src/**/*.test.{ts,tsx}'], exclude: mocking } },
      { extends: true, test: { name: 'isolated', include: mocking, isolate: true } },
    ],
  },
})
