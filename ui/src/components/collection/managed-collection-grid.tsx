import { useState } from 'react'
import { type CollectionSortBy, useBrowseCollections } from '@/lib/collection/browse-collections'
import { useUser } from '@/lib/use-user'
import { EAGER_IMAGES } from '@/lib/image-sources'
import { CollectionCard } from './collection-card'
import { CollectionDialog } from './collection-dialog'
import { CollectionGrid } from './collection-grid'
import { canManageCollection, CollectionMenu } from './collection-menu'

/**
 * Collections from GET /api/collection/browse (everyone's, or one user's) with their creator's
 * edit / delete menu and the update dialog; `detailPath` says where a card opens. `refreshKey`
 * changing reloads from page 1 (after a create elsewhere on the page).
 */
export function ManagedCollectionGrid({
  userId,
  ownProfile = false,
  enabled = true,
  detailPath,
  emptyText,
  refreshKey = 0,
  sortBy,
  orderBy,
  search,
  verifiedOnly,
}: {
  userId?: string
  ownProfile?: boolean
  enabled?: boolean
  detailPath: (id: string) => string
  emptyText: string
  refreshKey?: number
  sortBy?: CollectionSortBy
  orderBy?: 0 | 1
  search?: string
  verifiedOnly?: boolean
}) {
  const { user } = useUser()
  const [editing, setEditing] = useState<string | null>(null)
  const list = useBrowseCollections({
    userId,
    enabled,
    refresh: refreshKey,
    sortBy,
    orderBy,
    search,
    verifiedOnly,
    // Section 8: a failed collection call only stops the loading (the empty message shows).
    onError: (error) => console.error('Could not load collections', error),
  })
  const refresh = () => void list.refresh()
  return (
    <>
      <CollectionGrid
        list={list}
        emptyText={emptyText}
        renderCard={(c, index) => (
          <CollectionCard
            collection={c}
            eager={index < EAGER_IMAGES}
            to={detailPath(c._id)}
            myUserId={user?.userId}
            menu={canManageCollection(c, user?.userId, ownProfile) ? <CollectionMenu collection={c} onEdit={setEditing} onChanged={refresh} /> : undefined}
          />
        )}
      />
      <CollectionDialog open={!!editing} collectionId={editing} onClose={() => setEditing(null)} onSaved={refresh} />
    </>
  )
}
