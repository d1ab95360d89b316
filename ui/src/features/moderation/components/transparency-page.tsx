import { Badge, Box, Button, chakra, Flex, Heading, HStack, Link as ChakraLink, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { LuChevronLeft, LuChevronRight, LuDownload } from 'react-icons/lu'
import { Link, useSearchParams } from 'react-router'
import { DecisionBadge } from '@/components/moderation/badges'
import { PageContainer } from '@/components/page-container'
import { HorizontalScroll } from '@/components/scroll-hint'
import { errorMessage } from '@/lib/api-client'
import { formatCount, formatDateTime, formatRelative, localeTag } from '@/lib/format'
import {
  DECISION_KINDS,
  type Decision,
  REPORT_REASONS,
  targetPath,
  TRANSPARENCY_CSV,
  TRANSPARENCY_PAGE_SIZE,
  type TransparencyMonth,
  useTransparency,
} from '@/lib/moderation/api'

// Plain table elements styled here: Chakra's table recipe would add to the theme every first visit loads.
const Tr = chakra('tr', { base: { borderBottomWidth: '1px', borderColor: 'border.muted', _last: { borderBottomWidth: '0' } } })
const Th = chakra('th', { base: { px: '3', py: '2', fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', bg: 'bg.subtle', textAlign: 'end', whiteSpace: 'nowrap' } })
const Td = chakra('td', { base: { px: '3', py: '2', fontSize: 'sm', textAlign: 'end', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } })

/** "2026-11" as "November 2026" in the reader's language. */
export function formatMonth(month: string, lng?: string) {
  const [year, m] = month.split('-').map(Number)
  if (!year || !m) return month
  return new Intl.DateTimeFormat(localeTag(lng), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, m - 1, 1))
}

function sum(values: Partial<Record<string, number>>) {
  return Object.values(values).reduce<number>((a, b) => a + (b ?? 0), 0)
}

/** Decisions every record shows a column for; the others only in months that have some. */
const CORE_DECISIONS = new Set(['HIDE', 'RESTORE', 'DISMISS'])

function MonthsTable({ months }: { months: TransparencyMonth[] }) {
  const { t, i18n } = useTranslation()
  // Nine kinds of decision would push the table past a wide screen: the rare ones (verifications,
  // holds, mutes) get a column when these months have one.
  const kinds = DECISION_KINDS.filter((d) => CORE_DECISIONS.has(d) || months.some((m) => m.decisions[d]))
  const lng = i18n.resolvedLanguage
  const n = (value: number | undefined) => formatCount(value ?? 0, lng)
  const hours = (value: number | null) =>
    value === null ? '—' : new Intl.NumberFormat(localeTag(lng), { maximumFractionDigits: value < 10 ? 1 : 0 }).format(value)
  return (
    <HorizontalScroll label={t('transparency.monthsTitle')} hint={t('insight.scrollHint')} borderWidth="1px" borderRadius="xl">
      <chakra.table w="full" css={{ borderCollapse: 'collapse' }} data-testid="transparency-months">
        <thead>
          <Tr>
            <Th rowSpan={2} textAlign="start" position="sticky" insetStart="0" zIndex="1">
              {t('transparency.month')}
            </Th>
            <Th colSpan={REPORT_REASONS.length + 1} textAlign="start" borderStartWidth="1px">
              {t('transparency.reports')}
            </Th>
            <Th colSpan={kinds.length} textAlign="start" borderStartWidth="1px">
              {t('transparency.decisions')}
            </Th>
            <Th rowSpan={2} borderStartWidth="1px" whiteSpace="normal" minW="24">
              {t('transparency.medianHours')}
            </Th>
          </Tr>
          <Tr>
            {REPORT_REASONS.map((r, i) => (
              <Th key={r} borderStartWidth={i === 0 ? '1px' : undefined}>
                {t(`moderation.reasonsShort.${r}`)}
              </Th>
            ))}
            <Th>{t('transparency.total')}</Th>
            {kinds.map((d, i) => (
              <Th key={d} borderStartWidth={i === 0 ? '1px' : undefined}>
                {t(`moderation.decisions.${d}`)}
              </Th>
            ))}
          </Tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <Tr key={m.month} data-testid="transparency-month" data-month={m.month}>
              <Td textAlign="start" fontWeight="semibold" position="sticky" insetStart="0" bg="bg" zIndex="1">
                {formatMonth(m.month, lng)}
              </Td>
              {REPORT_REASONS.map((r, i) => (
                <Td key={r} borderStartWidth={i === 0 ? '1px' : undefined} borderColor="border.muted" color={m.reports[r] ? 'fg' : 'fg.subtle'}>
                  {n(m.reports[r])}
                </Td>
              ))}
              <Td fontWeight="semibold">{n(sum(m.reports))}</Td>
              {kinds.map((d, i) => (
                <Td key={d} borderStartWidth={i === 0 ? '1px' : undefined} borderColor="border.muted" color={m.decisions[d] ? 'fg' : 'fg.subtle'}>
                  {n(m.decisions[d])}
                </Td>
              ))}
              <Td borderStartWidth="1px" borderColor="border.muted" data-testid="median-hours">
                {hours(m.medianHoursToDecision)}
              </Td>
            </Tr>
          ))}
        </tbody>
      </chakra.table>
    </HorizontalScroll>
  )
}

/**
 * One public decision: its kind, the target's title beside its id (a hidden target shows as a
 * hidden item: its title may be the abuse itself), the reason, who decided and when.
 */
function DecisionItem({ decision }: { decision: Decision }) {
  const { t, i18n } = useTranslation()
  const lng = i18n.resolvedLanguage
  const title = decision.targetTitle || (decision.targetHidden ? t('transparency.hiddenItem') : null)
  return (
    <Stack as="li" gap="1.5" px="4" py="3" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }} data-testid="transparency-decision">
      <Flex gap="2" wrap="wrap" align="center" justify="space-between">
        <HStack gap="2" wrap="wrap" minW="0">
          <DecisionBadge decision={decision.decision} />
          <Badge variant="outline">{t(`moderation.kinds.${decision.targetKind}`)}</Badge>
          <ChakraLink asChild color="brand.fg" fontWeight="medium" wordBreak="break-word" gap="2" alignItems="baseline" flexWrap="wrap">
            <Link to={targetPath(decision.targetKind, decision.targetId)}>
              {title ? (
                <chakra.span fontStyle={decision.targetTitle ? undefined : 'italic'} data-testid="decision-title">
                  {title}
                </chakra.span>
              ) : null}{' '}
              <chakra.span fontFamily="mono" fontSize="sm" color={title ? 'fg.muted' : undefined} wordBreak="break-all" data-testid="decision-target-id">
                {decision.targetId}
              </chakra.span>
            </Link>
          </ChakraLink>
        </HStack>
        <Text asChild fontSize="xs" color="fg.subtle" whiteSpace="nowrap">
          <time dateTime={decision.at} title={formatDateTime(decision.at, lng)}>
            {formatRelative(decision.at, Date.now(), lng)}
          </time>
        </Text>
      </Flex>
      {decision.reason ? (
        <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
          {decision.reason}
        </Text>
      ) : null}
      <Text fontSize="xs" color="fg.muted">
        {t('transparency.decidedBy', { username: decision.moderator })}
        {decision.reports ? ` · ${t('transparency.reportsDecided', { count: decision.reports })}` : ''}
      </Text>
    </Stack>
  )
}

/**
 * /transparency (public): the moderators' record from the event log: reports received by reason,
 * decisions by kind and the median hours to a decision, per month; every public decision with its
 * target, reason, moderator and time, paged; and the whole list as CSV. Never a reporter.
 */
export function TransparencyPage() {
  const { t, i18n } = useTranslation()
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const { data, error, isLoading } = useTransparency(page)
  useEffect(() => {
    document.title = `${t('transparency.title')} | ${t('app.name')}`
  }, [t])
  const pages = data ? Math.max(1, Math.ceil(data.totalDecisions / TRANSPARENCY_PAGE_SIZE)) : 1
  const go = (to: number) => setParams(to > 1 ? { page: String(to) } : {}, { preventScrollReset: true })

  return (
    <PageContainer>
      <Flex gap="4" justify="space-between" align={{ base: 'stretch', md: 'flex-end' }} direction={{ base: 'column', md: 'row' }} mb="8">
        <Stack gap="2" maxW="3xl">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
            {t('transparency.title')}
          </Heading>
          <Text color="fg.muted">{t('transparency.intro')}</Text>
        </Stack>
        <Button asChild variant="outline" borderRadius="full" flexShrink={0} alignSelf={{ base: 'flex-start', md: 'auto' }}>
          <a href={TRANSPARENCY_CSV} download data-testid="transparency-csv">
            <LuDownload aria-hidden /> {t('transparency.csv')}
          </a>
        </Button>
      </Flex>
      {error && !data ? (
        <Text color="fg.error">{errorMessage(error, t('common.genericError'))}</Text>
      ) : isLoading || !data ? (
        <Stack gap="4" data-testid="transparency-loading">
          <Skeleton h="40" borderRadius="xl" />
          <Skeleton h="60" borderRadius="xl" />
        </Stack>
      ) : (
        <Stack gap="10">
          <Stack gap="3" as="section" aria-labelledby="transparency-months-title">
            <Heading as="h2" size="lg" id="transparency-months-title">
              {t('transparency.monthsTitle')}
            </Heading>
            {data.months.length ? (
              <MonthsTable months={data.months} />
            ) : (
              <Text color="fg.muted" data-testid="transparency-no-months">
                {t('transparency.noMonths')}
              </Text>
            )}
          </Stack>
          <Stack gap="3" as="section" aria-labelledby="transparency-decisions-title">
            <Flex justify="space-between" align="baseline" gap="2" wrap="wrap">
              <Heading as="h2" size="lg" id="transparency-decisions-title">
                {t('transparency.decisionsTitle')}
              </Heading>
              <Text color="fg.muted" fontSize="sm" data-testid="transparency-total">
                {t('transparency.totalDecisions', { count: data.totalDecisions, formatted: formatCount(data.totalDecisions, i18n.resolvedLanguage) })}
              </Text>
            </Flex>
            {data.decisions.length ? (
              <Box as="ul" listStyleType="none" m="0" p="0" borderWidth="1px" borderRadius="xl" bg="bg.panel" data-testid="transparency-decisions">
                {data.decisions.map((d) => (
                  <DecisionItem key={d.position} decision={d} />
                ))}
              </Box>
            ) : (
              <Text color="fg.muted">{t('transparency.noDecisions')}</Text>
            )}
            {pages > 1 ? (
              <HStack as="nav" aria-label={t('transparency.pages')} justify="center" gap="3" pt="2">
                <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => go(page - 1)} data-testid="transparency-prev">
                  <LuChevronLeft aria-hidden /> {t('transparency.previous')}
                </Button>
                <Text fontSize="sm" color="fg.muted" aria-live="polite">
                  {t('transparency.page', { page, pages })}
                </Text>
                <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => go(page + 1)} data-testid="transparency-next">
                  {t('transparency.next')} <LuChevronRight aria-hidden />
                </Button>
              </HStack>
            ) : null}
          </Stack>
        </Stack>
      )}
    </PageContainer>
  )
}
