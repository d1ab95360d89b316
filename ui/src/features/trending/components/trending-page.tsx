import { Center, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { PageContainer } from '@/components/page-container'
import { SellerCard, SellerCardSkeleton } from '@/components/seller-card'
import { notify } from '@/components/ui/toaster'
import { errorMessage } from '@/lib/api-client'
import { useSentinel } from '@/lib/nft/use-paged-list'
import { type TrendingType, useTrendingUsers } from '@/lib/trending-creators'
import { useUser } from '@/lib/use-user'
import { ListEnd } from '@/components/list-end'

/** Skeleton cards while the first page of sellers loads (section 9). */
export const SELLER_SKELETONS = 8

/**
 * /trending-sellers and /trending-creators: the users ranked by the trending score, 10 a page,
 * infinite; eight skeletons first, 'No Data' when there is nobody. A failed page shows the
 * server's message.
 */
export function TrendingPage({ type }: { type: TrendingType }) {
  const { t } = useTranslation()
  const { user } = useUser()
  const section = type === 'SELLER' ? 'sellers' : 'creators'
  const list = useTrendingUsers(type, (error) => {
    console.error('Could not load trending users', error)
    notify('error', errorMessage(error, t('common.genericError')))
  })
  const sentinel = useSentinel(list.loadMore, !list.loadingFirst && !list.done && !list.error, list.items.length)
  useEffect(() => {
    document.title = `${t(`trending.${section}.title`)} | ${t('app.name')}`
  }, [section, t])
  return (
    <PageContainer>
      <Stack gap="2" mb="8">
        <Heading as="h1" size="3xl">
          {t(`trending.${section}.title`)}
        </Heading>
        <Text color="fg.muted">{t(`trending.${section}.subtitle`)}</Text>
      </Stack>
      {list.loadingFirst ? (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="6">
          {Array.from({ length: SELLER_SKELETONS }, (_, i) => (
            <SellerCardSkeleton key={i} />
          ))}
        </SimpleGrid>
      ) : list.items.length === 0 ? (
        <Center py="16">
          <Text color="fg.muted" data-testid="empty-message">
            {t('trending.noData')}
          </Text>
        </Center>
      ) : (
        <>
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="6">
            {list.items.map((u) => (
              <SellerCard key={u.userId} user={u} myUserId={user?.userId} />
            ))}
          </SimpleGrid>
          <ListEnd sentinel={sentinel} loading={list.loadingMore} />
        </>
      )}
    </PageContainer>
  )
}
