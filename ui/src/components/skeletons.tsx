import { Box, HStack, Skeleton, SkeletonCircle, SkeletonText, Stack } from '@chakra-ui/react'

export function CardSkeleton() {
  return (
    <Box borderRadius="2xl" borderWidth="1px" bg="bg.panel" overflow="hidden" data-testid="card-skeleton">
      <Skeleton height="220px" />
      <Stack p="4" gap="3">
        <Skeleton height="5" width="70%" />
        <HStack>
          <SkeletonCircle size="8" />
          <SkeletonText noOfLines={1} flex="1" />
        </HStack>
      </Stack>
    </Box>
  )
}

export function ProfileSkeleton() {
  return (
    <Stack gap="4" data-testid="profile-skeleton">
      <Skeleton height="180px" borderRadius="2xl" />
      <HStack gap="4">
        <SkeletonCircle size="20" />
        <SkeletonText noOfLines={3} flex="1" />
      </HStack>
    </Stack>
  )
}

export function LinesSkeleton({ lines = 4 }: { lines?: number }) {
  return <SkeletonText noOfLines={lines} gap="4" />
}
