import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { marketplaceAbi } from './marketplace-abi'

test('the generated ABI is the built contract artifact’s (run npm run gen:abi after a contract change)', () => {
  const artifact = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../contracts/out/Marketplace.json', import.meta.url)), 'utf8'))
  expect(marketplaceAbi).toEqual(artifact.abi)
})
