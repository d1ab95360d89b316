import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderPage } from '@/testing/render'
import { UserAvatar } from './user-avatar'

const CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

describe('user avatar', () => {
  it('asks for the rendition its box needs: a small avatar its smallest one', () => {
    renderPage(
      <>
        <UserAvatar src={`/ipfs/${CID}`} fullName="Ada Lumen" username="ada" size="xs" />
        <UserAvatar src={`/ipfs/${CID}`} fullName="Kofi Waves" username="kofi" boxSize="24" />
      </>,
    )
    const small = screen.getByAltText('Ada Lumen')
    expect(small.getAttribute('sizes')).toBe('32px')
    expect(small.getAttribute('src')).toBe(`/ipfs/${CID}?w=64`)
    expect(small.getAttribute('srcset')).toContain(`/ipfs/${CID}?w=64 64w`)
    // Sized by the caller's box: up to the profile header's 8rem.
    const large = screen.getByAltText('Kofi Waves')
    expect(large.getAttribute('sizes')).toBe('128px')
    expect(large.getAttribute('src')).toBe(`/ipfs/${CID}?w=240`)
  })
})
