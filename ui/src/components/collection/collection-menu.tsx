import { Button, Dialog, IconButton, Menu, Portal, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuEllipsisVertical, LuPencil, LuTrash2 } from 'react-icons/lu'
import { deleteCollection } from '@/lib/collection/save-collection'
import type { Collection } from '@/lib/collection/types'

/**
 * Whether the edit / delete menu shows: for the collection's creator, or on the signed-in
 * user's own profile page (section 6).
 */
export function canManageCollection(collection: Collection, myUserId: string | undefined, ownProfile = false) {
  return ownProfile || (!!myUserId && collection.creator?.userId === myUserId)
}

/** Edit (opens the update dialog) and delete (after a confirmation, then `onChanged`). */
export function CollectionMenu({ collection, onEdit, onChanged }: { collection: Collection; onEdit: (id: string) => void; onChanged: () => void }) {
  const { t } = useTranslation()
  const [confirming, setConfirming] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const remove = async () => {
    setDeleting(true)
    try {
      await deleteCollection(collection._id)
    } catch (error) {
      // Section 8: a failed collection delete is only logged.
      console.error('Could not delete the collection', error)
    } finally {
      setDeleting(false)
      setConfirming(false)
      onChanged()
    }
  }
  return (
    <>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton size="xs" variant="ghost" borderRadius="full" aria-label={t('collections.menu')} data-testid="collection-menu">
            <LuEllipsisVertical />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              <Menu.Item value="edit" onSelect={() => onEdit(collection._id)}>
                <LuPencil /> {t('collections.edit')}
              </Menu.Item>
              <Menu.Item value="delete" color="fg.error" onSelect={() => setConfirming(true)}>
                <LuTrash2 /> {t('collections.delete')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <Dialog.Root open={confirming} onOpenChange={(e) => setConfirming(e.open)} role="alertdialog" placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="delete-collection-dialog">
              <Dialog.Header>
                <Dialog.Title>{t('collections.deleteTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Text>{t('collections.deleteConfirm', { title: collection.title })}</Text>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => setConfirming(false)} disabled={deleting}>
                  {t('collections.cancel')}
                </Button>
                <Button colorPalette="red" onClick={remove} loading={deleting}>
                  {t('collections.delete')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  )
}
