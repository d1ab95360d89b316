import { Box, Center, Spinner } from '@chakra-ui/react'
import type { RefObject } from 'react'

/**
 * The end of an infinite list: the sentinel that asks for the next page as it nears the view
 * (see `useSentinel`), and a spinner while that page loads.
 */
export function ListEnd({ sentinel, loading, testId }: { sentinel: RefObject<HTMLDivElement | null>; loading: boolean; testId?: string }) {
  return (
    <>
      <Box ref={sentinel} h="1px" data-testid={testId} />
      {loading && (
        <Center py="6">
          <Spinner color="brand.solid" />
        </Center>
      )}
    </>
  )
}
