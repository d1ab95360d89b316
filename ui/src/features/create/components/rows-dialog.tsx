import { Button, CloseButton, Dialog, HStack, IconButton, Input, Portal, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuPlus, LuTrash2 } from 'react-icons/lu'
import type { TranslationKey } from '@/lib/i18n'

/** One editable column of a row: which field, its label (column header and input label). */
export type RowColumn<R> = {
  field: Exclude<keyof R, 'id'> & string
  label: string
  placeholder?: string
  inputMode?: 'text' | 'decimal'
  /** Most characters (the API's limit). */
  maxLength?: number
  /** Relative width. */
  flex?: number
}

let nextRowId = 0
/** A local id for a new row (the spec's property rows carry one; it keys React's list). */
export const newRowId = () => `row-${++nextRowId}`

/**
 * The properties and royalty popups: rows with add and remove (remove only while there is more
 * than one row), Save and Close. Edits happen on a draft: Close drops it, Save validates it
 * (showing the first failing rule's message) and hands it over. Rows left entirely empty mean
 * "none": saving only those saves an empty list.
 */
export function RowsDialog<R extends { id: string }>({
  open,
  title,
  rows,
  emptyRow,
  columns,
  validate,
  maxRows,
  maxRowsKey,
  hintKey,
  addLabel,
  removeLabel,
  onSave,
  onClose,
  testId,
}: {
  open: boolean
  title: string
  rows: R[]
  emptyRow: () => R
  columns: RowColumn<R>[]
  /** The first failing rule as a translation key, or null. */
  validate: (rows: R[]) => TranslationKey | null
  maxRows?: number
  /** Shown when Add is pressed at `maxRows`. */
  maxRowsKey?: TranslationKey
  /** A hint above the rows (a translation key); when a rule answers this key it turns into the error. */
  hintKey?: TranslationKey
  addLabel: string
  removeLabel: string
  onSave: (rows: R[]) => void
  onClose: () => void
  testId: string
}) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<R[]>([])
  const [error, setError] = useState<TranslationKey | null>(null)

  useEffect(() => {
    if (open) {
      setDraft(rows.length > 0 ? rows.map((r) => ({ ...r })) : [emptyRow()])
      setError(null)
    }
    // Only when it opens: the draft is the user's until Save or Close.
  }, [open])

  const isEmpty = (row: R) => columns.every((c) => !String(row[c.field] ?? '').trim())

  const edit = (id: string, field: RowColumn<R>['field'], value: string) => {
    setError(null)
    setDraft((d) => d.map((r) => (r.id === id ? { ...r, [field]: value } : r)))
  }
  const add = () => {
    if (maxRows !== undefined && draft.length >= maxRows) {
      setError(maxRowsKey ?? null)
      return
    }
    setError(null)
    setDraft((d) => [...d, emptyRow()])
  }
  const remove = (id: string) => {
    setError(null)
    setDraft((d) => (d.length > 1 ? d.filter((r) => r.id !== id) : d))
  }
  const save = () => {
    const filled = draft.every(isEmpty) ? [] : draft
    const found = validate(filled)
    if (found) {
      setError(found)
      return
    }
    onSave(filled)
    onClose()
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} size="lg" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId} mx="3">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                {hintKey && (
                  <Text fontSize="sm" color={error === hintKey ? 'fg.error' : 'fg.muted'} role={error === hintKey ? 'alert' : undefined}>
                    {t(hintKey)}
                  </Text>
                )}
                <HStack gap="2" display={{ base: 'none', sm: 'flex' }} pe="10">
                  {columns.map((c) => (
                    <Text key={c.field} flex={c.flex ?? 1} fontSize="sm" fontWeight="medium" color="fg.muted">
                      {c.label}
                    </Text>
                  ))}
                </HStack>
                {draft.map((row, index) => (
                  <HStack key={row.id} gap="2" align="start" data-testid={`${testId}-row`}>
                    <Stack direction={{ base: 'column', sm: 'row' }} gap="2" flex="1">
                      {columns.map((c) => (
                        <Input
                          key={c.field}
                          flex={{ base: 'none', sm: c.flex ?? 1 }}
                          aria-label={`${c.label} ${index + 1}`}
                          placeholder={c.placeholder}
                          inputMode={c.inputMode}
                          maxLength={c.maxLength}
                          value={String(row[c.field] ?? '')}
                          onChange={(e) => edit(row.id, c.field, e.target.value)}
                        />
                      ))}
                    </Stack>
                    {draft.length > 1 && (
                      <IconButton aria-label={`${removeLabel} ${index + 1}`} variant="ghost" colorPalette="red" onClick={() => remove(row.id)}>
                        <LuTrash2 />
                      </IconButton>
                    )}
                  </HStack>
                ))}
                <Button variant="outline" size="sm" alignSelf="start" onClick={add}>
                  <LuPlus /> {addLabel}
                </Button>
                {error && error !== hintKey && (
                  <Text color="fg.error" fontSize="sm" role="alert">
                    {t(error)}
                  </Text>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="ghost" onClick={onClose}>
                {t('createAsset.close')}
              </Button>
              <Button colorPalette="brand" onClick={save}>
                {t('createAsset.save')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('createAsset.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
