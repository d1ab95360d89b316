import { useEffect } from 'react'

type Meta = { title: string; description: string; image: string }

function setMeta(attribute: 'name' | 'property', key: string, content: string, created: HTMLMetaElement[]) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`)
  if (!element) {
    element = document.createElement('meta')
    element.setAttribute(attribute, key)
    document.head.appendChild(element)
    created.push(element)
  }
  element.setAttribute('content', content)
}

/**
 * The page title and the social-preview tags (Open Graph and Twitter) of a page, set in the
 * browser; the tags this page added are removed when it unmounts.
 */
export function useMetaTags(meta: Meta | null) {
  const title = meta?.title
  const description = meta?.description
  const image = meta?.image
  useEffect(() => {
    if (title === undefined) return
    const previousTitle = document.title
    const created: HTMLMetaElement[] = []
    const imageUrl = image ? new URL(image, window.location.origin).toString() : ''
    document.title = title
    setMeta('name', 'description', description ?? '', created)
    setMeta('property', 'og:title', title, created)
    setMeta('property', 'og:description', description ?? '', created)
    setMeta('property', 'og:image', imageUrl, created)
    setMeta('property', 'og:url', window.location.href, created)
    setMeta('property', 'og:type', 'website', created)
    setMeta('name', 'twitter:card', 'summary_large_image', created)
    setMeta('name', 'twitter:title', title, created)
    setMeta('name', 'twitter:description', description ?? '', created)
    setMeta('name', 'twitter:image', imageUrl, created)
    return () => {
      document.title = previousTitle
      created.forEach((e) => e.remove())
    }
  }, [title, description, image])
}
