import { Input, InputGroup } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { LuSearch } from 'react-icons/lu'
import { TEXT_LIMITS } from '@/lib/text-limits'

/** Typing in a search box writes back (to the URL, the list) after this pause. */
export const SEARCH_DEBOUNCE_MS = 400

/**
 * A search box that shows `value` (what the URL says) and calls `onChange` with the trimmed text
 * after a short pause in typing, or at once on Enter.
 */
export function SearchBox({
  value,
  onChange,
  placeholder,
  testId,
}: {
  value: string
  onChange: (text: string) => void
  placeholder: string
  testId?: string
}) {
  const [text, setText] = useState(value)
  const latest = useRef(onChange)
  latest.current = onChange
  useEffect(() => setText(value), [value])
  useEffect(() => {
    if (text.trim() === value.trim()) return
    const timer = setTimeout(() => latest.current(text.trim()), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value])
  return (
    <InputGroup startElement={<LuSearch />} flex="1" maxW={{ md: 'sm' }}>
      <Input
        type="search"
        value={text}
        maxLength={TEXT_LIMITS.search}
        placeholder={placeholder}
        aria-label={placeholder}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(text.trim())
        }}
        data-testid={testId}
      />
    </InputGroup>
  )
}
