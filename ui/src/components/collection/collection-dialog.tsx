import { Box, Button, Center, CloseButton, Dialog, IconButton, Image, Input, Portal, Stack, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuImagePlus, LuX } from 'react-icons/lu'
import { errorMessage } from '@/lib/api-client'
import { useCollectionById } from '@/lib/collection/collection-by-id'
import { COLLECTION_IMAGE_ACCEPT, createCollection, updateCollection } from '@/lib/collection/save-collection'
import { COLLECTION_IMAGE_KINDS, isImageOf } from '@/lib/image-content'
import { FormField } from '../ui/form-field'
import { notify } from '../ui/toaster'
import { TEXT_LIMITS } from '@/lib/text-limits'
import type { TranslationKey } from '@/lib/i18n'

type Errors = { image?: TranslationKey; title?: TranslationKey }

/**
 * The rules of a new collection, in the spec's order: the image first, then the title (not
 * empty once trimmed). Only the first failing rule is reported. Updates are not validated.
 */
export function validateCollection({ hasImage, title }: { hasImage: boolean; title: string }): Errors {
  if (!hasImage) return { image: 'collections.dialog.imageRequired' }
  if (!title.trim()) return { title: 'collections.dialog.titleRequired' }
  return {}
}

/**
 * Create (no `collectionId`) or update (loads the existing image and title) a collection. The
 * image can be removed and picked again (.png, .jpg, .webp). After a save the dialog closes and
 * `onSaved` refreshes the list; a create also clears the form. A failure shows the server's
 * message.
 */
export function CollectionDialog({ open, collectionId, onClose, onSaved }: { open: boolean; collectionId?: string | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation()
  const isUpdate = !!collectionId
  const existing = useCollectionById(open && isUpdate ? collectionId : null)
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [title, setTitle] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [saving, setSaving] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)

  // Update mode: start from the collection's picture and title once they are loaded.
  const loaded = existing.data
  useEffect(() => {
    if (!isUpdate || !loaded) return
    setTitle(loaded.title ?? '')
    setPreview(loaded.image || null)
    setFile(null)
  }, [isUpdate, loaded])

  // A preview made from a picked file is released when it is replaced or removed.
  useEffect(() => {
    if (!preview?.startsWith('blob:')) return
    return () => URL.revokeObjectURL(preview)
  }, [preview])

  const clear = () => {
    setFile(null)
    setPreview(null)
    setTitle('')
    setErrors({})
  }

  /** A picked file is taken if its content is a PNG, JPEG or WebP image (the server's rule), whatever its name. */
  const pick = async (picked: File | undefined) => {
    if (!picked) return
    if (!(await isImageOf(picked, COLLECTION_IMAGE_KINDS))) {
      setErrors((e) => ({ ...e, image: 'collections.dialog.imageType' }))
      return
    }
    setFile(picked)
    setPreview(URL.createObjectURL(picked))
    setErrors((e) => ({ ...e, image: undefined }))
  }

  const removeImage = () => {
    setFile(null)
    setPreview(null)
    if (inputRef.current) inputRef.current.value = ''
  }

  const close = () => {
    if (saving) return
    if (isUpdate) clear()
    else setErrors({})
    onClose()
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (!isUpdate) {
      const found = validateCollection({ hasImage: !!file, title })
      setErrors(found)
      if (found.image || found.title) return
    }
    setSaving(true)
    try {
      if (isUpdate) await updateCollection(collectionId, title.trim(), file)
      else await createCollection(title.trim(), file as File)
      notify('success', t(isUpdate ? 'collections.dialog.updated' : 'collections.dialog.created'))
      clear()
      onClose()
      onSaved()
    } catch (error) {
      notify('error', errorMessage(error, t('common.genericError')))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => (e.open ? undefined : close())} placement="center" size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="collection-dialog">
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{t(isUpdate ? 'collections.dialog.updateTitle' : 'collections.dialog.createTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="5">
                  <FormField label={t('collections.dialog.image')} error={errors.image ? t(errors.image) : null} helper={t('collections.dialog.imageHint')}>
                    <Box position="relative" w="full" h="200px" borderRadius="xl" borderWidth="2px" borderStyle={preview ? 'solid' : 'dashed'} overflow="hidden" bg="bg.muted">
                      {preview ? (
                        <>
                          <Image src={preview} alt={t('collections.dialog.preview')} w="100%" h="100%" objectFit="cover" />
                          <IconButton position="absolute" top="2" right="2" size="xs" borderRadius="full" aria-label={t('collections.dialog.removeImage')} onClick={removeImage}>
                            <LuX />
                          </IconButton>
                        </>
                      ) : isUpdate && existing.isLoading ? (
                        <Center h="100%">
                          <Text color="fg.muted">{t('collections.fetching')}</Text>
                        </Center>
                      ) : (
                        <Center as="label" h="100%" cursor="pointer" flexDirection="column" gap="2" color="fg.muted" _hover={{ color: 'fg' }}>
                          <LuImagePlus size="32" />
                          <Text fontSize="sm">{t('collections.dialog.pickImage')}</Text>
                          <input
                            ref={inputRef}
                            type="file"
                            accept={COLLECTION_IMAGE_ACCEPT}
                            hidden
                            data-testid="collection-image-input"
                            onChange={(e) => {
                              void pick(e.target.files?.[0])
                              e.target.value = ''
                            }}
                          />
                        </Center>
                      )}
                    </Box>
                  </FormField>
                  <FormField label={t('collections.dialog.titleLabel')} error={errors.title ? t(errors.title) : null}>
                    <Input
                      value={title}
                      maxLength={TEXT_LIMITS.collectionTitle}
                      placeholder={t('collections.dialog.titlePlaceholder')}
                      onChange={(e) => {
                        setTitle(e.target.value)
                        setErrors((er) => ({ ...er, title: undefined }))
                      }}
                    />
                  </FormField>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={close} disabled={saving}>
                  {t('common.cancel')}
                </Button>
                {/* The progress message ('Collection creating...') shows in the button, above the
                    dialog: the page's busy overlay would sit under it. */}
                <Button type="submit" colorPalette="brand" loading={saving} loadingText={t(isUpdate ? 'collections.dialog.updating' : 'collections.dialog.creating')}>
                  {t(isUpdate ? 'collections.dialog.update' : 'collections.dialog.create')}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
