import { Stack } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { NftCard } from '@/components/nft'
import { SellerCard, SellerCardSkeleton } from '@/components/seller-card'
import { CardSkeleton } from '@/components/skeletons'
import { useTrendingSellersFirstPage } from '@/lib/trending-creators'
import { useUser } from '@/lib/use-user'
import { useSliderNfts } from '../api/slider-nfts'
import { Slider } from './slider'

/** Live Auctions, Trending NFTs and Trending Sellers, each with its View all link. */
export function HomeSliders() {
  const { t } = useTranslation()
  const { user } = useUser()
  const auctions = useSliderNfts('AUCTION')
  const trending = useSliderNfts('FIXEDPRICE')
  const sellers = useTrendingSellersFirstPage()
  return (
    <Stack gap={{ base: '12', md: '16' }}>
      <Slider
        testId="slider-auctions"
        title={t('home.liveAuctions')}
        viewAllTo="/auction?type=all"
        items={auctions.data}
        loading={auctions.isLoading}
        emptyText={t('home.noNfts')}
        itemKey={(n) => n._id}
        renderItem={(n) => <NftCard nft={n} onChanged={() => void auctions.mutate()} />}
        skeleton={<CardSkeleton />}
      />
      <Slider
        testId="slider-trending"
        title={t('home.trendingNfts')}
        viewAllTo="/explore?type=all"
        items={trending.data}
        loading={trending.isLoading}
        emptyText={t('home.noNfts')}
        itemKey={(n) => n._id}
        renderItem={(n) => <NftCard nft={n} onChanged={() => void trending.mutate()} />}
        skeleton={<CardSkeleton />}
      />
      <Slider
        testId="slider-sellers"
        title={t('home.trendingSellers')}
        viewAllTo="/trending-sellers"
        items={sellers.data}
        loading={sellers.isLoading}
        emptyText={t('home.noSellers')}
        itemKey={(s) => s.userId}
        renderItem={(s) => <SellerCard user={s} myUserId={user?.userId} />}
        skeleton={<SellerCardSkeleton />}
      />
    </Stack>
  )
}
