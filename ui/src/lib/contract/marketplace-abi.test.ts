import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { marketplaceAbi } from './marketplace-abi'

test('the generated ABI is the built contract artifact’s (run npm run gen:abi after a contract change)', () => {
  // vitest runs from ui/; the artifact is the contracts' build output.
  const artifact = JSON.parse(readFileSync(resolve(process.cwd(), '../contracts/out/Marketplace.json'), 'utf8'))
  expect(marketplaceAbi).toEqual(artifact.abi)
})
