import { Box, Button, Menu, Portal } from '@chakra-ui/react'
import { useTranslation } from 'react-i18next'
import { LuArrowDownUp, LuCheck } from 'react-icons/lu'
import type { TranslationKey } from '@/lib/i18n'

/** A sort menu: a button naming the current order, and the orders to choose from (a check on the current). */
export function SortMenu({
  value,
  options,
  onChange,
  testId = 'sort-menu',
}: {
  value: string
  options: readonly { id: string; labelKey: TranslationKey }[]
  onChange: (id: string) => void
  testId?: string
}) {
  const { t } = useTranslation()
  const current = options.find((o) => o.id === value) ?? options[0]
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="outline" size="md" data-testid={testId} flexShrink={0}>
          <LuArrowDownUp />
          {t(current.labelKey)}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="52">
            {options.map((o) => (
              <Menu.Item key={o.id} value={o.id} onSelect={() => onChange(o.id)}>
                <Box w="4">{o.id === value ? <LuCheck /> : null}</Box>
                {t(o.labelKey)}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}
