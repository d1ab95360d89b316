import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'

/** The chosen values of each trait (property key): any value of a trait, all the traits. */
export type TraitSelection = Readonly<Record<string, readonly string[]>>

/** The API's and the URL's `trait` parameter: `Name:Value`, a `:` or `\` in the name escaped. */
export function encodeTrait(name: string, value: string): string {
  return `${name.replace(/\\/g, '\\\\').replace(/:/g, '\\:')}:${value}`
}

/** A `trait` parameter's name and value, or null when it is not `Name:Value` (the API's rule). */
export function decodeTrait(raw: string): [string, string] | null {
  let name = ''
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]
    if (c === '\\') {
      const next = raw[i + 1]
      if (next !== ':' && next !== '\\') return null
      name += next
      i++
    } else if (c === ':') {
      const [n, v] = [name.trim(), raw.slice(i + 1).trim()]
      return n && v ? [n, v] : null
    } else {
      name += c
    }
  }
  return null
}

/** The selection the URL's `trait` parameters name (malformed ones are left out). */
export function selectionFromParams(params: URLSearchParams): TraitSelection {
  const selection: Record<string, string[]> = {}
  for (const raw of params.getAll('trait')) {
    const pair = decodeTrait(raw)
    if (!pair) continue
    const values = (selection[pair[0]] ??= [])
    if (!values.includes(pair[1])) values.push(pair[1])
  }
  return selection
}

/** The `trait` parameters of a selection, sorted (the same selection is the same request). */
export function traitParams(selection: TraitSelection): string[] {
  return Object.entries(selection)
    .flatMap(([name, values]) => values.map((value) => encodeTrait(name, value)))
    .sort()
}

/** How many values are chosen. */
export function selectedCount(selection: TraitSelection): number {
  return Object.values(selection).reduce((sum, values) => sum + values.length, 0)
}

/**
 * The trait filter of a list, kept in the URL's `trait` parameters so a link or a reload shows
 * the same list; each change is a history entry, so back and forward step through them.
 */
export function useTraitFilter() {
  const [params, setParams] = useSearchParams()
  // Keyed on the `trait` parameters' text: another parameter changing keeps the same selection.
  const raw = JSON.stringify(params.getAll('trait'))
  const selection = useMemo(() => selectionFromParams(new URLSearchParams((JSON.parse(raw) as string[]).map((t) => ['trait', t]))), [raw])
  const write = useCallback(
    (next: (current: TraitSelection) => TraitSelection) =>
      setParams((previous) => {
        const out = new URLSearchParams(previous)
        out.delete('trait')
        for (const param of traitParams(next(selectionFromParams(previous)))) out.append('trait', param)
        return out
      }),
    [setParams],
  )
  const toggle = useCallback(
    (name: string, value: string) =>
      write((current) => {
        const values = current[name] ?? []
        const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value]
        const { [name]: _, ...rest } = current
        return next.length ? { ...rest, [name]: next } : rest
      }),
    [write],
  )
  const clear = useCallback(() => write(() => ({})), [write])
  const list = useMemo(() => traitParams(selection), [selection])
  return { selection, toggle, clear, params: list }
}
