import { describe, expect, it } from 'vitest'
import { offerProceedsWei, royaltyBps } from './api'

describe('offerProceedsWei', () => {
  it("is the amount less the offer's fee and each royalty row, each rounded down in wei as the contract's split", () => {
    // 999 wei at 10%: fee 99; royalties 10% -> 99 and 2.5% -> 24 (not 12.5% of 999 = 124 at once).
    expect(offerProceedsWei({ amountWei: '999', feeBps: 1000 }, [{ percentage: 10 }, { percentage: 2.5 }])).toBe(777n)
    expect(offerProceedsWei({ amountWei: '1000000000000000000', feeBps: 500 }, [])).toBe(950000000000000000n)
    expect(offerProceedsWei({ amountWei: '1000000000000000000', feeBps: 0 }, [{ percentage: 90 }])).toBe(100000000000000000n)
  })

  it('reads percentages as basis points without float noise', () => {
    expect(royaltyBps({ percentage: 2.5 })).toBe(250n)
    expect(royaltyBps({ percentage: 0.07 })).toBe(7n)
    expect(royaltyBps({ percentage: 12.34 })).toBe(1234n)
    expect(royaltyBps({ percentage: 2.5, bps: 250 })).toBe(250n)
  })
})
