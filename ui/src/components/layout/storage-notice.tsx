import { Box, Flex, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuCookie } from 'react-icons/lu'
import { siteStorageBlocked } from '@/lib/site-storage'

/** Shown while the browser blocks the site's cookies and storage: browsing works, signing in needs them. */
export function StorageNotice() {
  const { t } = useTranslation()
  const [blocked] = useState(siteStorageBlocked)
  if (!blocked) return null
  return (
    <Box role="status" bg={{ _light: 'orange.100', _dark: 'orange.900' }} color={{ _light: 'orange.950', _dark: 'orange.50' }} px="4" py="2" data-testid="storage-notice">
      <Flex maxW="7xl" mx="auto" align={{ base: 'flex-start', md: 'center' }} justify={{ base: 'flex-start', md: 'center' }} gap="2" fontSize="sm">
        <Box as="span" flexShrink="0" mt={{ base: '1', md: '0' }} aria-hidden="true">
          <LuCookie />
        </Box>
        <Text>{t('app.storageBlocked')}</Text>
      </Flex>
    </Box>
  )
}
