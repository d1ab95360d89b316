import { Box, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { formatCount } from '@/lib/format'
import { ACCENT_GRADIENT } from '@/lib/theme'
import { useMarketplaceStatistics } from '../api/marketplace-statistics'

const HEXAGON = 'polygon(25% 5%, 75% 5%, 100% 50%, 75% 95%, 25% 95%, 0% 50%)'

function Hexagon({ value, label }: { value: number | undefined; label: string }) {
  const { i18n } = useTranslation()
  return (
    <Stack align="center" gap="3">
      <Box w={{ base: '96px', sm: '140px', md: '180px' }} h={{ base: '84px', sm: '122px', md: '156px' }} bgImage={ACCENT_GRADIENT} style={{ clipPath: HEXAGON }} p="3px">
        <Flex w="100%" h="100%" bg="bg.panel" style={{ clipPath: HEXAGON }} align="center" justify="center" direction="column">
          <Text fontSize={{ base: 'lg', sm: '2xl', md: '3xl' }} fontWeight="extrabold" bgImage={ACCENT_GRADIENT} bgClip="text" color="transparent" data-testid="statistic-value">
            {value === undefined ? '—' : formatCount(value, i18n.language)}
          </Text>
        </Flex>
      </Box>
      <Text fontWeight="semibold" color="fg.muted" textAlign="center" fontSize={{ base: 'xs', sm: 'sm', md: 'md' }}>
        {label}
      </Text>
    </Stack>
  )
}

/** Total NFTs minted, total sellers, total NFTs sold. */
export function StatisticsHexagons() {
  const { t } = useTranslation()
  const { data } = useMarketplaceStatistics()
  return (
    <SimpleGrid columns={3} gap={{ base: '3', md: '8' }} justifyItems="center" data-testid="statistics">
      <Hexagon value={data?.totalNftMinted} label={t('landing.stats.minted')} />
      <Hexagon value={data?.totalSeller} label={t('landing.stats.sellers')} />
      <Hexagon value={data?.totalNftSold} label={t('landing.stats.sold')} />
    </SimpleGrid>
  )
}
