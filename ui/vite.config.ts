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
 * Test files that run with a module graph of their own: those that replace modules with `vi.mock`
 * (wagmi, its actions: in the shared graph a file that ran earlier may have loaded the real modules
 * already), and those marked `// vitest: isolated`: in the shared graph, after other files had run,
 * a click on a menu item there closed the menu without selecting (likely zag's module-wide stack of
 * dismissable layers, which outlives a file; alone or isolated they pass every time).
 */
function mockingTestFiles(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return mockingTestFiles(path)
    if (!/\.test\.tsx?$/.test(entry.name) || !/vi\.mock\(|\/\/ vitest: isolated/.test(readFileSync(path, 'utf8'))) return []
    return [relative(root, path)]
  })
}
const mocking = mockingTestFiles()

/**
 * The app's own modules and the libraries the shell uses whole. Not the libraries imported
 * through a barrel (viem, Chakra's and zag's components): the barrel makes every module of the
 * library look reachable, lazy screens' parts included.
 */
const SHELL_PACKAGES =
  /[\\/]ui[\\/]src[\\/]|node_modules[\\/](react-router|i18next|react-i18next|i18next-http-backend|i18next-browser-languagedetector|swr|zustand|js-cookie)[\\/]/

/**
 * Chakra's components that are plain styled elements (box, stack, text, badge...), with no state
 * machine of their own, and the parts every state machine shares: a few hundred bytes each, as
 * separate chunks they are dozens of requests on the first screen. Together they are one.
 */
const chakraComponents = join(root, 'node_modules', '@chakra-ui', 'react', 'dist', 'esm', 'components')
const plainChakraComponents = readdirSync(chakraComponents, { withFileTypes: true }).flatMap((entry) =>
  entry.isDirectory() &&
  readdirSync(join(chakraComponents, entry.name)).every((file) => !/@ark-ui|@zag-js/.test(readFileSync(join(chakraComponents, entry.name, file), 'utf8')))
    ? [entry.name]
    : [],
)
const UI_KIT_PARTS = [
  `@chakra-ui/react/dist/esm/components/(${plainChakraComponents.join('|')}|button|native-select)/`,
  '@chakra-ui/react/dist/esm/components/icons\\.js',
  '@chakra-ui/react/dist/esm/(hooks/|merge-props|merge-refs|create-context|preset-base|anatomy)',
  '@pandacss/is-valid-prop/',
  '@zag-js/(anatomy|dom-query|utils|types|core|react|presence)/',
  '@zag-js/[^/]+/dist/[^/]+\\.anatomy\\.mjs',
  '@ark-ui/react/dist/(utils/|providers/|_virtual/|components/factory|components/presence/)',
  '@ark-ui/react/dist/components/[^/]+/(use-[^/]+-context|[^/]+\\.anatomy)\\.js',
  '(dequal|react-is|hoist-non-react-statics)/',
  // What the above build on (the shell's chunk builds on this one, never the reverse).
  '(react|react-dom|scheduler|use-sync-external-store|next-themes|stylis|@emotion/[^/]+)/',
  '@chakra-ui/react/dist/esm/(styled-system|theme|preset|utils|create-recipe-context|create-slot-recipe-context|styled-system)',
]
const UI_KIT = new RegExp(`node_modules/(${UI_KIT_PARTS.join('|')})`)

type ModuleGraph = { getModuleInfo(id: string): { importers: readonly string[] } | null }
const shellEntry = join(root, 'src', 'main.tsx')
const inShell = new Map<string, boolean>()
/**
 * Whether the entry (src/main.tsx) imports a module statically, directly or not: the shell that
 * every first visit runs. Those modules go into one chunk, as the shell is needed whole anyway:
 * left to the bundler they are some forty chunks of a few hundred bytes (shared with lazy
 * screens), each a request with its own headers.
 */
function isShellModule(id: string, graph: ModuleGraph, visiting = new Set<string>()): boolean {
  const known = inShell.get(id)
  if (known !== undefined) return known
  if (id === shellEntry) return true
  if (visiting.has(id)) return false
  visiting.add(id)
  const result = (graph.getModuleInfo(id)?.importers ?? []).some((importer) => isShellModule(importer, graph, visiting))
  // A module found unreachable only because of a cycle being walked is not remembered.
  if (result || visiting.size === 1) inShell.set(id, result)
  return result
}

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
            // The same for its address checks (isAddress, getAddress: EIP-55 needs keccak), which
            // the shell uses to show addresses as wallets do.
            { name: 'viem-address', test: /node_modules[\\/]viem[\\/]_esm[\\/]utils[\\/]address[\\/]/ },
            // Vite's helper for lazy chunks, which every screen needs: otherwise it may share a
            // chunk with a hash function of the wallet code, downloaded with it on every visit.
            { name: 'preload-helper', test: /vite[\\/]preload-helper/ },
            { name: (id, graph) => (isShellModule(id, graph) && SHELL_PACKAGES.test(id) ? 'shell' : null), includeDependenciesRecursively: false },
            // The moderation parts the NFT, collection and profile pages share with /moderation
            // (report and reason dialogs, the ⋯ menu, badges, the removed page, the calls): one
            // chunk, not ten. Each chunk's name is listed in the shell for the routes that need
            // it, so ten small ones would weigh on every first visit. Not the "verified only"
            // toggle of explore and the collections grid, nor the roles the menus ask.
            {
              name: 'moderation-kit',
              test: (id) => /[\\/]ui[\\/]src[\\/](components[\\/]moderation[\\/]|lib[\\/]moderation[\\/]api\.ts)/.test(id) && !/verified-only-toggle/.test(id),
              includeDependenciesRecursively: false,
            },
            // The staff's menu item and the roles it asks (the drawer asks them too): one chunk.
            { name: 'staff-menu', test: /[\\/]ui[\\/]src[\\/](app[\\/]staff-menu-item|lib[\\/]moderation[\\/]roles)\.tsx?$/, includeDependenciesRecursively: false },
            { name: 'ui-kit', test: (id) => UI_KIT.test(id.replaceAll('\\', '/')) },
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
