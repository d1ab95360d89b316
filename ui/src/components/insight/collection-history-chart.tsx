import { Box, HStack, Stack, Text } from '@chakra-ui/react'
import { Chart, useChart } from '@chakra-ui/charts'
import { useTranslation } from 'react-i18next'
import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts'
import { CURRENCY, formatCount, formatDate, formatMaticNumber } from '@/lib/format'
import type { DayBucket } from '@/lib/insight/api'
import { compactMatic, shortDay } from './chart-format'

/** The fewest days the chart spans. */
const MIN_DAYS = 7

type Day = { day: number; volume: number; floor: number | null; sales: number; volumeText: string; floorText: string | null }

/** A collection's daily volume (bars, left axis) and floor at each day's end (line, right axis). */
export default function CollectionHistoryChart({ days }: { days: DayBucket[] }) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  // At least a week on the axis: a collection that traded on one day is one bar among empty days.
  const first = days[0]?.day ?? 0
  const padding: DayBucket[] = Array.from({ length: Math.max(0, MIN_DAYS - days.length) }, (_, i) => ({
    day: first - (MIN_DAYS - days.length - i) * 86_400,
    volume: '0',
    volumeWei: '0',
    sales: 0,
    floor: null,
    floorWei: null,
  }))
  const data: Day[] = [...padding, ...days].map((d) => ({
    day: d.day * 1000,
    volume: Number(d.volume),
    floor: d.floor === null ? null : Number(d.floor),
    sales: d.sales,
    volumeText: d.volume,
    floorText: d.floor,
  }))
  const chart = useChart<Day>({
    data,
    series: [
      { name: 'volume', label: t('insight.volume'), color: 'brand.solid' },
      { name: 'floor', label: t('insight.floor'), color: 'orange.solid' },
    ],
  })
  return (
    <Stack gap="2" data-testid="collection-chart">
      <HStack gap="4" fontSize="xs" color="fg.muted" justify="flex-end" wrap="wrap">
        <HStack gap="1.5">
          <Box w="2.5" h="2.5" borderRadius="sm" bg="brand.solid" />
          <Text>{t('insight.dailyVolume')}</Text>
        </HStack>
        <HStack gap="1.5">
          <Box w="3" h="0.5" bg="orange.solid" />
          <Text>{t('insight.floor')}</Text>
        </HStack>
      </HStack>
      <Chart.Root chart={chart} aspectRatio={{ base: 'square', sm: 'wide' }} maxH="300px">
        <ComposedChart data={chart.data} responsive margin={{ top: 8, right: 4, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
          <XAxis dataKey="day" tickFormatter={(v: number) => shortDay(v, lng)} stroke={chart.color('border')}
            tick={{ fill: chart.color('fg.muted') }} tickMargin={6} minTickGap={24} />
          <YAxis yAxisId="volume" stroke={chart.color('border')}
            tick={{ fill: chart.color('fg.muted') }} tickFormatter={(v: number) => compactMatic(v, lng)} width={44} />
          <YAxis yAxisId="floor" orientation="right" stroke={chart.color('border')}
            tick={{ fill: chart.color('fg.muted') }} tickFormatter={(v: number) => compactMatic(v, lng)} width={44} />
          <Tooltip
            cursor={{ fill: chart.color('bg.muted') }}
            animationDuration={100}
            content={({ payload }) => {
              const day = payload?.[0]?.payload as Day | undefined
              if (!day) return null
              return (
                <Stack gap="0.5" bg="bg.panel" borderWidth="1px" borderRadius="md" px="3" py="2" boxShadow="md" fontSize="xs">
                  <Text fontWeight="semibold">{formatDate(day.day, lng, 'UTC')}</Text>
                  <Text>
                    {t('insight.volume')}: {formatMaticNumber(day.volumeText, lng, { exact: true })} {CURRENCY} · {t('insight.sales')}: {formatCount(day.sales, lng)}
                  </Text>
                  <Text>
                    {t('insight.floor')}: {day.floorText === null ? '—' : `${formatMaticNumber(day.floorText, lng, { exact: true })} ${CURRENCY}`}
                  </Text>
                </Stack>
              )
            }}
          />
          <Bar yAxisId="volume" dataKey="volume" fill={chart.color('brand.solid')} radius={[3, 3, 0, 0]} maxBarSize={24} isAnimationActive={false} />
          <Line yAxisId="floor" dataKey="floor" type="stepAfter" stroke={chart.color('orange.solid')} strokeWidth={2} dot={{ r: 3, fill: chart.color('orange.solid') }} connectNulls={false} isAnimationActive={false} />
        </ComposedChart>
      </Chart.Root>
    </Stack>
  )
}
