/**
 * The API's text limits in characters (each a call's OpenAPI `maxLength`, listed in
 * docs/api-limits.md): the inputs stop there, so typing never meets the server's 400.
 * `text-limits.test.ts` checks each against that document.
 */
export const TEXT_LIMITS = {
  email: 254,
  password: 128,
  username: 30,
  fullName: 100,
  verificationCode: 16,
  mobileNumber: 20,
  bio: 1000,
  contactName: 100,
  contactSubject: 200,
  contactMessage: 5000,
  collectionTitle: 100,
  search: 200,
  nftTitle: 500,
  nftDescription: 10_000,
  /** A property's key or value. */
  property: 200,
  walletAddress: 42,
} as const
