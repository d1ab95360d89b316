import { Box, HStack, Stack, Text } from '@chakra-ui/react'
import { Chart, useChart } from '@chakra-ui/charts'
import { useTranslation } from 'react-i18next'
import { CartesianGrid, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts'
import { CURRENCY, formatDateTime, formatMaticNumber } from '@/lib/format'
import type { PricePoint } from '@/lib/insight/api'
import { compactMatic, shortDay } from './chart-format'

type Point = { at: number; price: number; kind: PricePoint['kind']; label: string }

/**
 * The price history drawn: sales joined by a line, bids as dots, over time. Loaded on its own
 * (recharts is heavy): see `PriceHistory`, which shows the empty state without it.
 */
export default function PriceHistoryChart({ points }: { points: PricePoint[] }) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const all: Point[] = points.map((p) => ({ at: p.at * 1000, price: Number(p.price), kind: p.kind, label: p.price }))
  const chart = useChart<Point>({
    data: all,
    series: [
      { name: 'price', label: t('insight.sales'), color: 'brand.solid' },
      { name: 'price', label: t('insight.bids'), color: 'orange.solid' },
    ],
  })
  const sales = all.filter((p) => p.kind === 'SALE')
  const bids = all.filter((p) => p.kind === 'BID')
  // One point alone still gets a day of room on each side.
  const first = all[0]?.at ?? 0
  const last = all[all.length - 1]?.at ?? 0
  const pad = last - first < 86_400_000 ? 43_200_000 : 0
  return (
    <Stack gap="2" data-testid="price-chart">
      <HStack gap="4" fontSize="xs" color="fg.muted" justify="flex-end">
        <HStack gap="1.5">
          <Box w="2.5" h="2.5" borderRadius="full" bg="brand.solid" />
          <Text>{t('insight.sales')}</Text>
        </HStack>
        <HStack gap="1.5">
          <Box w="2.5" h="2.5" borderRadius="full" bg="orange.solid" />
          <Text>{t('insight.bids')}</Text>
        </HStack>
      </HStack>
      <Chart.Root chart={chart} aspectRatio={{ base: 'square', sm: 'wide' }} maxH="320px">
        <ScatterChart responsive margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
          <XAxis
            type="number"
            dataKey="at"
            domain={[first - pad, last + pad]}
            scale="time"
            tickFormatter={(v: number) => shortDay(v, lng)}
            stroke={chart.color('border')}
            tick={{ fill: chart.color('fg.muted') }}
            tickMargin={6}
            minTickGap={24}
          />
          <YAxis
            type="number"
            dataKey="price"
            stroke={chart.color('border')}
            tick={{ fill: chart.color('fg.muted') }}
            tickFormatter={(v: number) => compactMatic(v, lng)}
            width={48}
            label={{ value: CURRENCY, angle: -90, position: 'insideLeft', offset: 4 }}
          />
          <Tooltip
            cursor={false}
            animationDuration={100}
            content={({ payload }) => {
              const point = payload?.[0]?.payload as Point | undefined
              if (!point) return null
              return (
                <Stack gap="0.5" bg="bg.panel" borderWidth="1px" borderRadius="md" px="3" py="2" boxShadow="md" fontSize="xs">
                  <Text fontWeight="semibold">
                    {point.kind === 'SALE' ? t('insight.sale') : t('insight.bid')}: {formatMaticNumber(point.label, lng, { exact: true })} {CURRENCY}
                  </Text>
                  <Text color="fg.muted">{formatDateTime(point.at, lng)}</Text>
                </Stack>
              )
            }}
          />
          <Scatter name={t('insight.sales')} data={sales} fill={chart.color('brand.solid')} line={{ stroke: chart.color('brand.solid'), strokeWidth: 2 }} isAnimationActive={false} />
          <Scatter name={t('insight.bids')} data={bids} fill={chart.color('orange.solid')} shape="diamond" isAnimationActive={false} />
        </ScatterChart>
      </Chart.Root>
    </Stack>
  )
}
