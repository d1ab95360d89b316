import { Button, Center, CloseButton, Dialog, HStack, Image, Portal, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useAppConfig } from '@/lib/app-config'
import { IMAGE_SIZES, imageSources } from '@/lib/image-sources'
import { addToCollection, fetchMyCollections, MY_COLLECTIONS_PATH } from '@/lib/nft/api'
import type { Collection } from '@/lib/nft/types'
import { usePagedList } from '@/lib/nft/use-paged-list'

/**
 * Lists the caller's collections (GET /api/collection, 9 a page, more until lastPage) and adds
 * the NFT to the chosen one (PUT /api/collection/nft/{collectionId} with `[{nftId}]`).
 */
export function AddToCollectionDialog({ nftId, open, onClose, onAdded }: { nftId: string; open: boolean; onClose: () => void; onAdded?: () => void }) {
  const { t } = useTranslation()
  const { ipfsGateway } = useAppConfig()
  const [saving, setSaving] = useState<string | null>(null)
  const list = usePagedList<Collection>(open ? MY_COLLECTIONS_PATH : null, { nftId }, (_path, query) => fetchMyCollections(Number(query.page)), {
    onError: (error) => {
      console.error('Could not load collections', error)
      notify('error', errorMessage(error, t('nft.card.collectionsFailed')))
    },
  })

  const choose = async (collection: Collection) => {
    setSaving(collection._id)
    try {
      const { message } = await addToCollection(collection._id, nftId)
      notify('success', message || t('nft.card.addedToCollection'))
      onAdded?.()
      onClose()
    } catch (error) {
      console.error('Could not add the NFT to the collection', error)
      notify('error', errorMessage(error, t('nft.card.addToCollectionFailed')))
    } finally {
      setSaving(null)
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => (e.open ? undefined : onClose())} placement="center" size="sm" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="add-to-collection-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('nft.card.addToCollection')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="2">
                {list.loadingFirst &&
                  Array.from({ length: 3 }, (_, i) => <Skeleton key={i} height="14" borderRadius="lg" />)}
                {!list.loadingFirst && list.items.length === 0 && (
                  <Center py="6">
                    <Text color="fg.muted">{t('nft.card.noCollections')}</Text>
                  </Center>
                )}
                {list.items.map((c) => (
                  <Button
                    key={c._id}
                    variant="outline"
                    justifyContent="flex-start"
                    h="14"
                    loading={saving === c._id}
                    disabled={!!saving}
                    onClick={() => choose(c)}
                  >
                    <HStack gap="3" minW="0">
                      {c.image ? <Image {...imageSources(c.image, IMAGE_SIZES.avatar, ipfsGateway, window.location.origin, 240)} alt="" boxSize="10" borderRadius="md" objectFit="cover" /> : null}
                      <Text truncate>{c.title}</Text>
                    </HStack>
                  </Button>
                ))}
                {!list.done && !list.loadingFirst && list.items.length > 0 && (
                  <Button variant="ghost" size="sm" loading={list.loadingMore} onClick={list.loadMore}>
                    {t('nft.card.moreCollections')}
                  </Button>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
