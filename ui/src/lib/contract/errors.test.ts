import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import i18n from 'i18next'
import { encodeErrorResult, ContractFunctionRevertedError, BaseError, UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_LANGUAGES } from '@/lib/i18n'
import { chainErrorMessage } from '@/lib/nft/chain-calls'
import { CONTRACT_ERRORS, contractErrorText } from './errors'
import { marketplaceAbi } from './marketplace-abi'

const abiErrors = marketplaceAbi.filter((item) => item.type === 'error')
const locale = (lng: string) =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'public', 'locales', lng, 'translation.json'), 'utf8')) as { contractErrors: Record<string, string> }
const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort()

/** A revert of the contract as viem reports it from a simulation. */
function reverted(errorName: string, args: readonly unknown[]) {
  const data = encodeErrorResult({ abi: marketplaceAbi, errorName, args } as Parameters<typeof encodeErrorResult>[0])
  const cause = new ContractFunctionRevertedError({ abi: marketplaceAbi, data, functionName: 'bid' })
  return new BaseError('The contract function "bid" reverted.', { cause })
}

describe('contract errors', () => {
  it('has every custom error of the ABI in the table, with the ABI’s argument names', () => {
    expect(abiErrors.length).toBeGreaterThan(40)
    const missing = abiErrors.filter((e) => !CONTRACT_ERRORS[e.name]).map((e) => e.name)
    expect(missing).toEqual([])
    for (const e of abiErrors) expect(Object.keys(CONTRACT_ERRORS[e.name]).sort(), e.name).toEqual(e.inputs.map((i) => i.name).sort())
    const extra = Object.keys(CONTRACT_ERRORS).filter((name) => !abiErrors.some((e) => e.name === name))
    expect(extra).toEqual([])
  })

  it.each(SUPPORTED_LANGUAGES)('has a sentence for each in %s, naming only the error’s arguments', (lng) => {
    const sentences = locale(lng).contractErrors
    for (const e of abiErrors) {
      const sentence = sentences?.[e.name]
      expect(sentence, `${lng}: ${e.name}`).toBeTruthy()
      const names = new Set<string>(e.inputs.map((i) => i.name))
      expect(placeholders(sentence).filter((p) => !names.has(p)), `${lng}: ${e.name}`).toEqual([])
    }
    for (const key of ['unknown', 'details', 'rejected', 'insufficientFunds']) expect(sentences[key], `${lng}: ${key}`).toBeTruthy()
  })

  it('says a bid too low in MATIC, the minimum rounded up, in the user’s language', async () => {
    await i18n.changeLanguage('en')
    const error = { name: 'MarketplaceBidTooLow', args: { minimum: 297150000000000000n, sent: 282450000000000000n } }
    expect(contractErrorText(i18n.t, error, 'en')).toBe('Your bid of 0.28245\u00a0MATIC is too low: the minimum bid is now 0.298\u00a0MATIC.')
    // Tests load English only: French comes from its file here.
    const fr = i18n.createInstance()
    void fr.init({ lng: 'fr', resources: { fr: { translation: locale('fr') } }, interpolation: { escapeValue: false }, initAsync: false })
    expect(contractErrorText(fr.t, error, 'fr')).toBe('Votre enchère de 0,28245\u00a0MATIC est trop basse : l’enchère minimale est maintenant de 0,298\u00a0MATIC.')
    expect(contractErrorText(i18n.t, { name: 'NotInTheAbi', args: {} }, 'en')).toBeNull()
  })

  it('decodes viem’s revert into the sentence; an unknown failure is the generic sentence with its detail', async () => {
    await i18n.changeLanguage('en')
    expect(chainErrorMessage(reverted('MarketplaceBidTooLow', [297150000000000000n, 282450000000000000n]), i18n.t, 'en')).toEqual({
      text: 'Your bid of 0.28245\u00a0MATIC is too low: the minimum bid is now 0.298\u00a0MATIC.',
    })
    expect(chainErrorMessage(reverted('MarketplaceNotForSale', [7n]), i18n.t, 'en').text).toBe('NFT #7 is no longer for sale.')
    // A stolen-item hold names its end.
    const held = chainErrorMessage(reverted('MarketplaceSaleHeld', [7n, 1_900_000_000n]), i18n.t, 'en').text
    expect(held).toMatch(/^The sale of NFT #7 is on hold until .*2030.*: it was reported stolen/)
    expect(chainErrorMessage(new UserRejectedRequestError(new Error('denied')), i18n.t, 'en')).toEqual({ text: 'You cancelled the transaction in your wallet.' })
    const unknown = chainErrorMessage(new BaseError('RPC timeout at http://127.0.0.1:8545'), i18n.t, 'en')
    expect(unknown).toEqual({ text: 'The transaction failed.', detail: 'RPC timeout at http://127.0.0.1:8545' })
    expect(chainErrorMessage('weird', i18n.t, 'en')).toEqual({ text: 'The transaction failed.', detail: 'weird' })
  })
})
