import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TEXT_LIMITS } from './text-limits'

/** Where each UI limit is the API's: a call and field of docs/api-limits.md. */
const SOURCES: Record<Exclude<keyof typeof TEXT_LIMITS, 'property'>, [string, string]> = {
  email: ['POST /api/auth/register', 'email'],
  password: ['POST /api/auth/register', 'password'],
  username: ['POST /api/auth/register', 'username'],
  fullName: ['PUT /api/account/myprofile', 'fullName'],
  verificationCode: ['POST /api/auth/verifyaccount', 'verificationCode'],
  mobileNumber: ['PUT /api/account/myprofile', 'mobileNumber'],
  bio: ['PUT /api/account/myprofile', 'bio'],
  contactName: ['POST /api/misc/contactus', 'name'],
  contactSubject: ['POST /api/misc/contactus', 'subject'],
  contactMessage: ['POST /api/misc/contactus', 'message'],
  collectionTitle: ['POST /api/collection', 'title'],
  search: ['GET /api/nft/explore/', 'search'],
  nftTitle: ['POST /api/nft/ipfsupload', 'title'],
  nftDescription: ['POST /api/nft/ipfsupload', 'description'],
  walletAddress: ['PUT /api/account/connectwallet', 'walletAddress'],
}

describe('text limits', () => {
  const doc = readFileSync(join(__dirname, '../../../docs/api-limits.md'), 'utf8')
  const table = new Map(
    [...doc.matchAll(/^\| `([^`]+)` \| \w+ \| `([^`]+)` \| (\d+) \|$/gm)].map(([, call, field, most]) => [`${call} ${field}`, Number(most)]),
  )

  it('are the API document\'s, field by field', () => {
    expect(table.size).toBeGreaterThan(50)
    for (const [name, [call, field]] of Object.entries(SOURCES)) {
      expect([name, table.get(`${call} ${field}`)]).toEqual([name, TEXT_LIMITS[name as keyof typeof SOURCES]])
    }
  })

  it("hold a property's key and value to the document's rule", () => {
    expect(Number(doc.match(/each key and value\s+at most (\d+) characters/)?.[1])).toBe(TEXT_LIMITS.property)
  })
})
