// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every text file of dist/,
// at the strongest settings (done once per build, not per request). The server sends the copy
// the browser accepts (api/src/http/ui_files.rs). A copy that would not be smaller is not written.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dist = new URL('../dist/', import.meta.url).pathname
const TEXT = /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)$/

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else if (TEXT.test(name)) yield path
  }
}

let plain = 0
let brotli = 0
for (const path of files(dist)) {
  const bytes = readFileSync(path)
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  })
  const gz = gzipSync(bytes, { level: 9 })
  if (br.length < bytes.length) writeFileSync(`${path}.br`, br)
  if (gz.length < bytes.length) writeFileSync(`${path}.gz`, gz)
  plain += bytes.length
  brotli += Math.min(br.length, bytes.length)
}
console.log(`compressed dist/: ${(plain / 1024).toFixed(0)} KiB of text files, ${(brotli / 1024).toFixed(0)} KiB as brotli`)
