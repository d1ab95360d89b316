import { Box, Button, Flex, HStack, Input, Spinner, Stack, Text, Textarea } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LuUpload } from 'react-icons/lu'
import { useNavigate } from 'react-router'
import { SettingsSection } from '@/components/settings-section'
import { ProfileSkeleton } from '@/components/skeletons'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { GradientButton } from '@/components/ui/gradient-button'
import { notify } from '@/components/ui/toaster'
import { UserAvatar } from '@/components/user-avatar'
import { errorMessage } from '@/lib/api-client'
import { useBusyStore } from '@/lib/busy-store'
import { USERNAME_AVAILABLE, USERNAME_NOT_AVAILABLE, checkUsername } from '@/lib/check-username'
import { useSubmitForm } from '@/lib/use-submit-form'
import { useUser } from '@/lib/use-user'
import { updateMyProfile } from '../api/update-my-profile'
import { type EditProfileValues, validateEditProfile } from '../validation'
import { CoverCropDialog } from './cover-crop-dialog'
import { ProfileCover } from './profile-cover'
import { TEXT_LIMITS } from '@/lib/text-limits'
import { PROFILE_IMAGE_KINDS, isImageOf } from '@/lib/image-content'


/**
 * /profile/edit-profile: full name, username, bio, mobile number (e-mail shown, disabled), avatar,
 * and a cover cropped to aspect 2. Save shows 'Saving Profile...' and goes to /profile/user-profile.
 */
export function EditProfilePage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { user } = useUser()
  const busy = useBusyStore()
  const form = useSubmitForm<EditProfileValues>({ fullName: '', username: '', bio: '', mobileNumber: '' }, validateEditProfile)
  const [avatar, setAvatar] = useState<{ file: File; url: string } | null>(null)
  const [cover, setCover] = useState<{ png: Blob; url: string } | null>(null)
  const [cropSource, setCropSource] = useState<string | null>(null)
  const [usernameCheck, setUsernameCheck] = useState<{ username: string; state: 'checking' | 'available' | 'taken' | 'other'; message?: string } | null>(null)
  const loadedFor = useRef<string | null>(null)
  const avatarInput = useRef<HTMLInputElement>(null)
  const coverInput = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (user?.email && loadedFor.current !== user.userId) {
      loadedFor.current = user.userId
      form.reset({ fullName: user.fullName ?? '', username: user.username ?? '', bio: user.bio ?? '', mobileNumber: user.mobileNumber ?? '' })
    }
  }, [user, form])

  if (!user?.email) return <ProfileSkeleton />

  /** On blur, a username different from the current one is checked (same rule as sign-up). */
  const onUsernameBlur = async () => {
    const username = form.values.username.trim()
    if (!username || username === user.username || usernameCheck?.username === username) return
    setUsernameCheck({ username, state: 'checking' })
    try {
      const message = await checkUsername(username)
      const state = message === USERNAME_AVAILABLE ? 'available' : message === USERNAME_NOT_AVAILABLE ? 'taken' : 'other'
      setUsernameCheck({ username, state, message })
    } catch (error) {
      setUsernameCheck({ username, state: 'other', message: errorMessage(error, t('common.genericError')) })
    }
  }
  const shownCheck = usernameCheck && usernameCheck.username === form.values.username.trim() ? usernameCheck : null
  const usernameTaken = shownCheck?.state === 'taken'

  // Told by content, as the server tells them: a text file named .png is refused at once.
  const onAvatar = async (file: File | undefined) => {
    if (!file) return
    if (!(await isImageOf(file, PROFILE_IMAGE_KINDS))) {
      notify('error', t('profile.imagesOnly'))
      return
    }
    setAvatar({ file, url: URL.createObjectURL(file) })
  }
  const onCover = async (file: File | undefined) => {
    if (!file) return
    if (!(await isImageOf(file, PROFILE_IMAGE_KINDS))) {
      notify('error', t('profile.imagesOnly'))
      return
    }
    setCropSource(URL.createObjectURL(file))
  }

  const onSubmit = form.handleSubmit(async (values) => {
    busy.show(t('profile.saving'))
    try {
      const username = values.username.trim()
      await updateMyProfile({
        fullName: values.fullName.trim(),
        username: username !== user.username ? username : undefined,
        mobileNumber: values.mobileNumber.trim(),
        bio: values.bio,
        avatar: avatar?.file ?? null,
        coverImage: cover?.png ?? null,
      })
      loadedFor.current = null
      form.reset()
      setAvatar(null)
      setCover(null)
      navigate('/profile/user-profile')
    } catch (error) {
      notify('error', errorMessage(error, t('common.genericError')))
    } finally {
      busy.hide()
    }
  })

  return (
    <SettingsSection title={t('settings.menu.editProfile')}>
      <Form onSubmit={onSubmit} gap="5">
        <Box position="relative">
          <ProfileCover src={cover?.url ?? user.coverImage} height={{ base: '120px', md: '180px' }} />
          <Button size="xs" position="absolute" bottom="3" right="3" onClick={() => coverInput.current?.click()} bg="blackAlpha.700" color="white" _hover={{ bg: 'blackAlpha.800' }}>
            <LuUpload /> {t('profile.changeCover')}
          </Button>
          <input
            ref={coverInput}
            type="file"
            accept="image/*"
            hidden
            data-testid="cover-input"
            onChange={(e) => {
              void onCover(e.target.files?.[0])
              e.target.value = ''
            }}
          />
        </Box>
        <HStack gap="4">
          <UserAvatar src={avatar?.url ?? user.avatar} fullName={user.fullName} username={user.username} boxSize="20" fontSize="xl" />
          <Stack gap="1">
            <Button size="sm" variant="outline" onClick={() => avatarInput.current?.click()}>
              <LuUpload /> {t('profile.changeAvatar')}
            </Button>
            <Text fontSize="xs" color="fg.subtle">
              {t('profile.imageHint')}
            </Text>
          </Stack>
          <input
            ref={avatarInput}
            type="file"
            accept="image/*"
            hidden
            data-testid="avatar-input"
            onChange={(e) => {
              void onAvatar(e.target.files?.[0])
              e.target.value = ''
            }}
          />
        </HStack>
        <Flex gap="4" direction={{ base: 'column', md: 'row' }}>
          <FormField label={t('profile.fields.fullName')} error={form.errors.fullName && t(form.errors.fullName)}>
            <Input maxLength={TEXT_LIMITS.fullName} {...form.field('fullName')} />
          </FormField>
          <FormField label={t('profile.fields.username')} error={form.errors.username && t(form.errors.username)}>
            <Input maxLength={TEXT_LIMITS.username} {...form.field('username')} onBlur={onUsernameBlur} />
            {shownCheck?.state === 'checking' ? (
              <Spinner size="xs" color="fg.muted" data-testid="username-checking" />
            ) : shownCheck ? (
              <Text fontSize="sm" color={shownCheck.state === 'available' ? 'green.fg' : shownCheck.state === 'taken' ? 'red.fg' : 'orange.fg'} data-testid="username-status">
                {shownCheck.state === 'available'
                  ? t('auth.signUp.usernameAvailable')
                  : shownCheck.state === 'taken'
                    ? t('auth.signUp.usernameTaken')
                    : shownCheck.message}
              </Text>
            ) : null}
          </FormField>
        </Flex>
        <Flex gap="4" direction={{ base: 'column', md: 'row' }}>
          <FormField label={t('profile.fields.email')}>
            <Input value={user.email} disabled readOnly />
          </FormField>
          <FormField label={t('profile.fields.mobileNumber')} error={form.errors.mobileNumber && t(form.errors.mobileNumber)}>
            <Input type="tel" inputMode="numeric" maxLength={TEXT_LIMITS.mobileNumber} {...form.field('mobileNumber')} />
          </FormField>
        </Flex>
        <FormField label={t('profile.fields.bio')} error={form.errors.bio && t(form.errors.bio)}>
          <Textarea rows={4} placeholder={t('profile.bioPlaceholder')} maxLength={TEXT_LIMITS.bio} {...form.field('bio')} />
        </FormField>
        <HStack gap="3">
          <GradientButton type="submit" loading={form.submitting} disabled={usernameTaken}>
            {t('profile.save')}
          </GradientButton>
          <Button variant="ghost" onClick={() => navigate('/profile/user-profile')}>
            {t('common.close')}
          </Button>
        </HStack>
      </Form>
      <CoverCropDialog
        src={cropSource}
        onCancel={() => setCropSource(null)}
        onCropped={(png, url) => {
          setCover({ png, url })
          setCropSource(null)
        }}
      />
    </SettingsSection>
  )
}
